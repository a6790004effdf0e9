export * from './backbone.ts';
export * from './process-settings.ts';
export * from './clock.ts';
// The retry toolkit (one clock shape, one back-off, one retry loop) for services; libraries below runtime import @herald/retry itself.
export * from '@herald/retry';
export * from './lean-async-bind.ts';
