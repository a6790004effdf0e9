export * from './backbone.ts';
export * from './node-flags.ts';
export * from './clock.ts';
export * from './lean-async-bind.ts';
