export * from './providers/index.ts';
export { startDelivery, DELIVERY_GROUPS, type DeliveryDeps, type RunningDelivery } from './start-delivery.ts';
