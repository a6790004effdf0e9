export * from './backbone.ts';
export * from './node-flags.ts';
export * from './clock.ts';
