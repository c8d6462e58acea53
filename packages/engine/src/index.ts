export * from './engine.js';
export * from './model.js';
export * from './ranker.js';
export * from './profile.js';
export * from './text.js';
