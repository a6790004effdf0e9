export * from './providers/index.ts';
export { startDelivery, type DeliveryDeps, type RunningDelivery } from './start-delivery.ts';
