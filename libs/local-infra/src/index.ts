export * from './local-infra.ts';
export * from './free-port.ts';
