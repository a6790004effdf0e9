export * from './backbone.ts';
export * from './node-flags.ts';
