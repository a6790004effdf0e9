export * from './types.ts';
export * from './device-timeline.ts';
export * from './explain-reach.ts';
export * from './explainer.ts';
export * from './live-activity-facts.ts';
