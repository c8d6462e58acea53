export * from './errors.js';
export * from './domain.js';
export * from './ports.js';
export * from './runtime.js';
export * from './services/search-service.js';
export * from './services/search-queries.js';
export * from './services/api-key-service.js';
export * from './services/account-service.js';
