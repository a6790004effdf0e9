export * from './start-projector.ts';
