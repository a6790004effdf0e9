export * from './push-payloads.ts';
