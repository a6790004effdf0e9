export * from './backbone.ts';
