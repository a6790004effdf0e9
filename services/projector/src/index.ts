export * from './start-projector.ts';
export * from './apply-projection.ts';
export * from './projections/projection.ts';
export * from './projections/devices.ts';
export * from './projections/topics.ts';
