export * from './errors.js';
export * from './search.js';
export * from './account.js';
export * from './openapi.js';
export * from './bulk.js';
export * from './pages.js';
export * from './api-keys.js';
export * from './headers.js';
