import type { ReadModelName } from '@herald/mongo';
import { type AnyProjection, deliveryLedgerProjection, devicesProjection, notificationReportsProjection, notificationsProjection, topicsProjection } from '@herald/read-models';

/** Every read model the projector maintains. */
export const PROJECTIONS: Readonly<Record<ReadModelName, AnyProjection>> = {
  devices: devicesProjection,
  topics: topicsProjection,
  notifications: notificationsProjection,
  delivery_ledger: deliveryLedgerProjection,
  notification_reports: notificationReportsProjection,
};
