export * from './backbone.ts';
export * from './process-settings.ts';
export * from './clock.ts';
export * from './lean-async-bind.ts';
