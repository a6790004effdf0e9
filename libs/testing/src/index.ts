export * from './wait-for.ts';
export * from './test-env.ts';
export * from './service-process.ts';
export * from './group-caught-up.ts';
export * from './api-harness.ts';
export * from './infra-faults.ts';
export * from './own-infra.ts';
export * from './seed-audience.ts';
