export * from './runtime.js';
export * from './engines.js';
export * from './front.js';
export * from './provision.js';
export * from './services.js';
