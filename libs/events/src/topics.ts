/** Kafka topics Herald writes. Event topics are kept forever; work topics for 7 days. */
export const TOPICS = {
  deviceEvents: 'herald.device-events',
  topicEvents: 'herald.topic-events',
  notificationEvents: 'herald.notification-events',
  deliveriesApns: 'herald.deliveries.apns',
  deliveriesFcm: 'herald.deliveries.fcm',
  /** Web Push: batches of `web` devices, sent to each subscription's push service. */
  deliveriesWebpush: 'herald.deliveries.webpush',
  /** Huawei Push Kit: batches of `huawei` devices, sent in multicast requests. */
  deliveriesHms: 'herald.deliveries.hms',
  /** The express lane: batches of a notification whose whole audience fits in the fan-out's first step, so a small send never queues behind a campaign's batches. */
  deliveriesApnsExpress: 'herald.deliveries-express.apns',
  deliveriesFcmExpress: 'herald.deliveries-express.fcm',
  deliveriesWebpushExpress: 'herald.deliveries-express.webpush',
  deliveriesHmsExpress: 'herald.deliveries-express.hms',
  /** The retry lane: devices still retryable after a batch's first send, so a batch in trouble never holds fresh batches of any project. */
  deliveriesApnsRetry: 'herald.deliveries-retry.apns',
  deliveriesFcmRetry: 'herald.deliveries-retry.fcm',
  deliveriesWebpushRetry: 'herald.deliveries-retry.webpush',
  deliveriesHmsRetry: 'herald.deliveries-retry.hms',
  /** Fan-out work, one partition per device-events partition: partition p is run by the delivery instance holding p's audience index. */
  fanoutTasks: 'herald.fanout-tasks',
  /** How notifications in flight must be treated (cancelled, …): every delivery instance follows all of it. */
  deliveryControl: 'herald.delivery-control',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export interface TopicSpec {
  name: TopicName;
  kind: 'event' | 'work';
  /** A fixed partition count instead of the installation's (KAFKA_PARTITIONS). */
  partitions?: number;
  /** As many partitions as this topic has (co-partitioned topics). */
  partitionsLike?: TopicName;
}

export const TOPIC_SPECS: readonly TopicSpec[] = [
  { name: TOPICS.deviceEvents, kind: 'event' },
  { name: TOPICS.topicEvents, kind: 'event' },
  { name: TOPICS.notificationEvents, kind: 'event' },
  { name: TOPICS.deliveriesApns, kind: 'work' },
  { name: TOPICS.deliveriesFcm, kind: 'work' },
  { name: TOPICS.deliveriesApnsExpress, kind: 'work' },
  { name: TOPICS.deliveriesFcmExpress, kind: 'work' },
  { name: TOPICS.deliveriesApnsRetry, kind: 'work' },
  { name: TOPICS.deliveriesFcmRetry, kind: 'work' },
  { name: TOPICS.deliveriesWebpush, kind: 'work' },
  { name: TOPICS.deliveriesWebpushExpress, kind: 'work' },
  { name: TOPICS.deliveriesWebpushRetry, kind: 'work' },
  { name: TOPICS.deliveriesHms, kind: 'work' },
  { name: TOPICS.deliveriesHmsExpress, kind: 'work' },
  { name: TOPICS.deliveriesHmsRetry, kind: 'work' },
  // Co-partitioned with device-events: task partition p is run where device-events partition p is indexed.
  { name: TOPICS.fanoutTasks, kind: 'work', partitionsLike: TOPICS.deviceEvents },
  // Small, and read whole by every instance: one partition keeps it in order.
  { name: TOPICS.deliveryControl, kind: 'work', partitions: 1 },
];

const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

/** Topic-level config: event topics are the source of truth, so they never expire. */
export function topicConfig(spec: TopicSpec): Record<string, string> {
  return { 'retention.ms': spec.kind === 'event' ? '-1' : String(SEVEN_DAYS_MS) };
}

/** Delivery's consumer groups and what they consume (projector groups are per read-model version). */
export const DELIVERY_CONSUMERS = {
  // Takes each request: records where the audience stands and hands one task to each device-events partition concerned.
  fanout: { group: 'herald.fanout', topics: [TOPICS.notificationEvents] },
  // Co-partitioned: each instance gets the same partitions of both topics (its audience index, and the tasks that read it).
  fanoutPartitions: { group: 'herald.fanout-partitions', topics: [TOPICS.deviceEvents, TOPICS.fanoutTasks] },
  apns: { group: 'herald.apns', topics: [TOPICS.deliveriesApns] },
  fcm: { group: 'herald.fcm', topics: [TOPICS.deliveriesFcm] },
  webpush: { group: 'herald.webpush', topics: [TOPICS.deliveriesWebpush] },
  hms: { group: 'herald.hms', topics: [TOPICS.deliveriesHms] },
  // Groups of their own: a small send is fetched at once, not after the campaign batches a sender holds.
  apnsExpress: { group: 'herald.apns-express', topics: [TOPICS.deliveriesApnsExpress] },
  fcmExpress: { group: 'herald.fcm-express', topics: [TOPICS.deliveriesFcmExpress] },
  webpushExpress: { group: 'herald.webpush-express', topics: [TOPICS.deliveriesWebpushExpress] },
  hmsExpress: { group: 'herald.hms-express', topics: [TOPICS.deliveriesHmsExpress] },
  // Groups of their own: retrying batches wait (back-off, Retry-After, deadlines) among themselves, never before fresh ones.
  apnsRetry: { group: 'herald.apns-retry', topics: [TOPICS.deliveriesApnsRetry] },
  fcmRetry: { group: 'herald.fcm-retry', topics: [TOPICS.deliveriesFcmRetry] },
  webpushRetry: { group: 'herald.webpush-retry', topics: [TOPICS.deliveriesWebpushRetry] },
  hmsRetry: { group: 'herald.hms-retry', topics: [TOPICS.deliveriesHmsRetry] },
} as const;

/** Where a consumer group puts the records it could not handle, keyed as the original. */
export function deadLetterTopic(sourceTopic: string, groupId: string): string {
  return `${sourceTopic}.dlq.${groupId}`;
}
