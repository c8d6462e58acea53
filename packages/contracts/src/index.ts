export * from './errors.js';
export * from './search.js';
export * from './account.js';
export * from './openapi.js';
