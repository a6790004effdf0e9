/** Kafka topics Herald writes. Event topics are kept forever; work topics for 7 days. */
export const TOPICS = {
  deviceEvents: 'herald.device-events',
  topicEvents: 'herald.topic-events',
  notificationEvents: 'herald.notification-events',
  deliveriesApns: 'herald.deliveries.apns',
  deliveriesFcm: 'herald.deliveries.fcm',
  /** The express lane: batches of a notification whose whole audience fits in the fan-out's first step, so a small send never queues behind a campaign's batches. */
  deliveriesApnsExpress: 'herald.deliveries-express.apns',
  deliveriesFcmExpress: 'herald.deliveries-express.fcm',
  fanoutSteps: 'herald.fanout-steps',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export interface TopicSpec {
  name: TopicName;
  kind: 'event' | 'work';
}

export const TOPIC_SPECS: readonly TopicSpec[] = [
  { name: TOPICS.deviceEvents, kind: 'event' },
  { name: TOPICS.topicEvents, kind: 'event' },
  { name: TOPICS.notificationEvents, kind: 'event' },
  { name: TOPICS.deliveriesApns, kind: 'work' },
  { name: TOPICS.deliveriesFcm, kind: 'work' },
  { name: TOPICS.deliveriesApnsExpress, kind: 'work' },
  { name: TOPICS.deliveriesFcmExpress, kind: 'work' },
  { name: TOPICS.fanoutSteps, kind: 'work' },
];

const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

/** Topic-level config: event topics are the source of truth, so they never expire. */
export function topicConfig(spec: TopicSpec): Record<string, string> {
  return { 'retention.ms': spec.kind === 'event' ? '-1' : String(SEVEN_DAYS_MS) };
}

/** Delivery's consumer groups and what they consume (projector groups are per read-model version). */
export const DELIVERY_CONSUMERS = {
  // Requests (step 0, at most 1,000 devices) and continuations in groups of their own: kafkajs fetches again
  // only when every batch of its last fetch is handled, so a new request would wait out a campaign's 10,000-device step.
  fanout: { group: 'herald.fanout', topics: [TOPICS.notificationEvents] },
  fanoutSteps: { group: 'herald.fanout-steps', topics: [TOPICS.fanoutSteps] },
  apns: { group: 'herald.apns', topics: [TOPICS.deliveriesApns] },
  fcm: { group: 'herald.fcm', topics: [TOPICS.deliveriesFcm] },
  // Groups of their own: a small send is fetched at once, not after the campaign batches a sender holds.
  apnsExpress: { group: 'herald.apns-express', topics: [TOPICS.deliveriesApnsExpress] },
  fcmExpress: { group: 'herald.fcm-express', topics: [TOPICS.deliveriesFcmExpress] },
} as const;

/** Where a consumer group puts the records it could not handle, keyed as the original. */
export function deadLetterTopic(sourceTopic: string, groupId: string): string {
  return `${sourceTopic}.dlq.${groupId}`;
}
