import type { ReadModelName } from '@herald/mongo';
import type { AnyProjection } from './projection.ts';
import { devicesProjection } from './devices.ts';
import { topicsProjection } from './topics.ts';
import { notificationsProjection } from './notifications.ts';
import { deliveryLedgerProjection } from './delivery-ledger.ts';
import { notificationReportsProjection } from './notification-reports.ts';

/** Every read model the projector maintains. */
export const PROJECTIONS: Readonly<Record<ReadModelName, AnyProjection>> = {
  devices: devicesProjection,
  topics: topicsProjection,
  notifications: notificationsProjection,
  delivery_ledger: deliveryLedgerProjection,
  notification_reports: notificationReportsProjection,
};
