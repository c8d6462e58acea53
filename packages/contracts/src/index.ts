export * from './errors.js';
export * from './search.js';
