export * from './local-infra.ts';
