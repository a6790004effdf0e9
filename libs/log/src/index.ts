export * from './create-logger.ts';
export * from './announce-wait.ts';
