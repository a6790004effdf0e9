export * from './clock.ts';
export * from './backoff.ts';
export * from './retry.ts';
