export * from './keys.js';
export * from './client.js';
export * from './conditions.js';
export * from './ledger.js';
export * from './accounts.js';
export * from './api-keys.js';
export * from './searches.js';
export * from './idempotency.js';
