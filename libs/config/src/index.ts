export * from './load-config.ts';
export * from './run-process.ts';
