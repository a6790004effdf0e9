import type { TSchema } from 'typebox';
import { TOPICS, type TopicName } from './topics.ts';
import { DeviceRegisteredV1 } from './schemas/device-registered.v1.ts';
import { DeviceRegisteredV2 } from './schemas/device-registered.v2.ts';
import { MetadataUpdatedV1 } from './schemas/metadata-updated.v1.ts';
import { MetadataUpdatedV2 } from './schemas/metadata-updated.v2.ts';
import { DeviceDeactivatedV1 } from './schemas/device-deactivated.v1.ts';
import { DeviceDeactivatedV2 } from './schemas/device-deactivated.v2.ts';
import { TopicCreatedV1 } from './schemas/topic-created.v1.ts';
import { TopicDeletedV1 } from './schemas/topic-deleted.v1.ts';
import { DeviceUnlinkedV1 } from './schemas/device-unlinked.v1.ts';
import { NotificationRequestedV1 } from './schemas/notification-requested.v1.ts';
import { NotificationRequestedV2 } from './schemas/notification-requested.v2.ts';
import { NotificationDispatchedV1 } from './schemas/notification-dispatched.v1.ts';
import { NotificationDispatchedV2 } from './schemas/notification-dispatched.v2.ts';
import { DeliveryReportedV1 } from './schemas/delivery-reported.v1.ts';
import { DeliveryReportedV2 } from './schemas/delivery-reported.v2.ts';
import { NotificationOpenedV1 } from './schemas/notification-opened.v1.ts';
import { NotificationOpenedV2 } from './schemas/notification-opened.v2.ts';
import { VariantDecidedV1 } from './schemas/variant-decided.v1.ts';
import { DeliveryBatchV1 } from './schemas/delivery-batch.v1.ts';
import { DeliveryBatchV2 } from './schemas/delivery-batch.v2.ts';
import { FanoutTaskV1 } from './schemas/fanout-task.v1.ts';
import { FanoutTaskV2 } from './schemas/fanout-task.v2.ts';
import { TokenAssignedV1 } from './schemas/token-assigned.v1.ts';
import { DeliveryControlV1 } from './schemas/delivery-control.v1.ts';
import { NotificationDueV1 } from './schemas/notification-due.v1.ts';
import { DeviceUnregisteredV1 } from './schemas/device-unregistered.v1.ts';
import { DevicePurgedV1 } from './schemas/device-purged.v1.ts';
import { NotificationCancelledV1 } from './schemas/notification-cancelled.v1.ts';
import { NotificationExpiredV1 } from './schemas/notification-expired.v1.ts';
import { NotificationSteeredV1 } from './schemas/notification-steered.v1.ts';
import { AudienceEstimatedV1 } from './schemas/audience-estimated.v1.ts';
import { ProjectThrottledV1 } from './schemas/project-throttled.v1.ts';
import { LiveActivityRequestedV1 } from './schemas/live-activity-requested.v1.ts';
import { LiveActivityReportedV1 } from './schemas/live-activity-reported.v1.ts';
import { LiveActivityRequestedV2 } from './schemas/live-activity-requested.v2.ts';
import { LiveActivityReportedV2 } from './schemas/live-activity-reported.v2.ts';

/** The latest version of every event; consumers only ever see these (older versions are upcast). */
export type HeraldEvent =
  | DeviceRegisteredV2
  | MetadataUpdatedV2
  | DeviceDeactivatedV2
  | TopicCreatedV1
  | TopicDeletedV1
  | DeviceUnlinkedV1
  | NotificationRequestedV2
  | NotificationDispatchedV2
  | DeliveryReportedV2
  | NotificationOpenedV2
  | VariantDecidedV1
  | DeliveryBatchV2
  | FanoutTaskV2
  | TokenAssignedV1
  | DeliveryControlV1
  | NotificationDueV1
  | DeviceUnregisteredV1
  | DevicePurgedV1
  | NotificationCancelledV1
  | NotificationExpiredV1
  | NotificationSteeredV1
  | AudienceEstimatedV1
  | ProjectThrottledV1
  | LiveActivityRequestedV2
  | LiveActivityReportedV2;

export type EventType = HeraldEvent['type'];
export type EventOf<T extends EventType> = Extract<HeraldEvent, { type: T }>;
export type EventData<T extends EventType> = EventOf<T>['data'];

export interface CatalogEntry {
  /** `<Type>.v<N>`, also the schema's `$id`. */
  id: string;
  schema: TSchema;
  type: EventType;
  version: number;
  /** Topic the event is written to (DeliveryBatch goes to a per-provider work topic instead). */
  topic: TopicName;
  /** The data field that is the stream id, and so the Kafka key. */
  streamField: string;
}

function entry(schema: TSchema, topic: TopicName, streamField: string): CatalogEntry {
  const id = (schema as { $id?: string }).$id ?? '';
  const [type, version] = id.split('.v') as [EventType, string];
  return { id, schema, type, version: Number(version), topic, streamField };
}

/** Every published event version. Published versions never change; a breaking change adds vN+1. */
export const CATALOG: readonly CatalogEntry[] = [
  entry(DeviceRegisteredV1, TOPICS.deviceEvents, 'device_id'),
  entry(DeviceRegisteredV2, TOPICS.deviceEvents, 'device_id'),
  entry(MetadataUpdatedV1, TOPICS.deviceEvents, 'device_id'),
  entry(MetadataUpdatedV2, TOPICS.deviceEvents, 'device_id'),
  entry(DeviceDeactivatedV1, TOPICS.deviceEvents, 'device_id'),
  entry(DeviceDeactivatedV2, TOPICS.deviceEvents, 'device_id'),
  entry(DeviceUnregisteredV1, TOPICS.deviceEvents, 'device_id'),
  entry(DevicePurgedV1, TOPICS.deviceEvents, 'device_id'),
  entry(DeviceUnlinkedV1, TOPICS.deviceEvents, 'device_id'),
  // Keyed by the id derived from the token, so the audience index of that partition can find the device holding it.
  entry(TokenAssignedV1, TOPICS.deviceEvents, 'token_device_id'),
  entry(TopicCreatedV1, TOPICS.topicEvents, 'topic_id'),
  entry(TopicDeletedV1, TOPICS.topicEvents, 'topic_id'),
  entry(NotificationRequestedV1, TOPICS.notificationEvents, 'notification_id'),
  entry(NotificationRequestedV2, TOPICS.notificationEvents, 'notification_id'),
  entry(NotificationDispatchedV1, TOPICS.notificationEvents, 'notification_id'),
  entry(NotificationDispatchedV2, TOPICS.notificationEvents, 'notification_id'),
  entry(DeliveryReportedV1, TOPICS.notificationEvents, 'notification_id'),
  entry(DeliveryReportedV2, TOPICS.notificationEvents, 'notification_id'),
  entry(NotificationOpenedV1, TOPICS.notificationEvents, 'notification_id'),
  entry(NotificationOpenedV2, TOPICS.notificationEvents, 'notification_id'),
  entry(VariantDecidedV1, TOPICS.notificationEvents, 'notification_id'),
  entry(NotificationCancelledV1, TOPICS.notificationEvents, 'notification_id'),
  entry(NotificationExpiredV1, TOPICS.notificationEvents, 'notification_id'),
  entry(NotificationSteeredV1, TOPICS.notificationEvents, 'notification_id'),
  entry(AudienceEstimatedV1, TOPICS.notificationEvents, 'notification_id'),
  entry(NotificationDueV1, TOPICS.notificationEvents, 'notification_id'),
  // Keyed by the Live Activity request's own id (docs/guides/live-activities.md); consumers of notifications pass them over by type.
  entry(LiveActivityRequestedV1, TOPICS.notificationEvents, 'request_id'),
  entry(LiveActivityReportedV1, TOPICS.notificationEvents, 'request_id'),
  entry(LiveActivityRequestedV2, TOPICS.notificationEvents, 'request_id'),
  entry(LiveActivityReportedV2, TOPICS.notificationEvents, 'request_id'),
  // Keyed by batch, not notification: one campaign's batches spread over every partition and sender.
  entry(DeliveryBatchV1, TOPICS.deliveriesApns, 'batch_id'),
  entry(DeliveryBatchV2, TOPICS.deliveriesApns, 'batch_id'),
  // Keyed by fan-out; published to an explicit partition: the device-events partition whose index runs it.
  entry(FanoutTaskV1, TOPICS.fanoutTasks, 'fanout_id'),
  entry(FanoutTaskV2, TOPICS.fanoutTasks, 'fanout_id'),
  entry(DeliveryControlV1, TOPICS.deliveryControl, 'notification_id'),
  // herald.delivery-control has one partition: the key only names the provider that pushed back.
  entry(ProjectThrottledV1, TOPICS.deliveryControl, 'provider'),
];

const LATEST = new Map<EventType, CatalogEntry>();
for (const item of CATALOG) {
  const current = LATEST.get(item.type);
  if (current === undefined || current.version < item.version) LATEST.set(item.type, item);
}

export function latestEntry(type: EventType): CatalogEntry {
  const found = LATEST.get(type);
  if (found === undefined) throw new Error(`no catalog entry for ${type}`);
  return found;
}

export function findEntry(type: string, version: number): CatalogEntry | undefined {
  return CATALOG.find((item) => item.type === type && item.version === version);
}
