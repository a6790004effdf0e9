import { createEvent, TOPICS, type NotificationRequestedV1 } from '@herald/events';
import { audienceFilter, resolveAudience, splitTargets, topicLookupFilter } from '@herald/audience';
import type { DeviceDocument, ReadModelRegistry, TopicDocument } from '@herald/mongo';
import { wrapMongoError } from '@herald/mongo';
import type { ConsumedEvent, EventProducer, HandlerContext } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { createBatcher } from './batcher.ts';

export interface FanoutDeps {
  producer: EventProducer;
  readModels: ReadModelRegistry;
  logger: Logger;
  /** Batches written per Kafka request while streaming the audience. */
  publishEvery?: number;
  /** Older requests are dispatched to nobody: a push hours late is worse than none, and a reset group must not resend history. */
  maxAgeMs?: number;
}

/** Whether a request is too old to send (pure, for the handler and its tests). */
export function isExpired(event: Pick<NotificationRequestedV1, 'occurred_at'>, maxAgeMs: number | undefined, now: number): boolean {
  return maxAgeMs !== undefined && now - Date.parse(event.occurred_at) > maxAgeMs;
}

export const WORK_TOPIC = { apns: TOPICS.deliveriesApns, fcm: TOPICS.deliveriesFcm } as const;

/**
 * Resolves one notification's audience and queues its delivery batches:
 * the devices are streamed from MongoDB with a cursor in id order (never
 * loaded whole), cut into batches of up to 500 per provider, and written to
 * the work topics; then NotificationDispatched says how many were targeted.
 */
export async function fanOut(deps: FanoutDeps, event: NotificationRequestedV1, heartbeat: () => Promise<void> = async () => undefined): Promise<{ apns: number; fcm: number }> {
  const { data } = event;
  const projectId = event.project_id;
  if (isExpired(event, deps.maxAgeMs, Date.now())) {
    deps.logger.warn({ notification_id: data.notification_id, requested_at: event.occurred_at }, 'notification too old to send; dispatched to nobody');
    const none = { apns: 0, fcm: 0 };
    await deps.producer.publish([
      createEvent('NotificationDispatched', { notification_id: data.notification_id, targeted: none, batches: none }, { project_id: projectId, correlation_id: event.correlation_id }),
    ]);
    return none;
  }
  const spec = splitTargets(data.targets);
  const topics = await deps.readModels.collection<TopicDocument>('topics');
  const devices = await deps.readModels.collection<DeviceDocument>('devices');
  const named = spec.names.length === 0 ? [] : await topics.find(topicLookupFilter(projectId, spec)).project<Pick<TopicDocument, '_id' | 'name'>>({ _id: 1, name: 1 }).toArray();
  const audience = resolveAudience(projectId, spec, named);

  const batcher = createBatcher({
    notificationId: data.notification_id,
    projectId,
    correlationId: event.correlation_id,
    message: {
      title: data.title,
      body: data.body,
      ...(data.link_to === undefined ? {} : { link_to: data.link_to }),
      ...(data.group === undefined ? {} : { group: data.group }),
    },
  });
  const publishEvery = deps.publishEvery ?? 20;
  let ready: ReturnType<typeof batcher.flush> = [];
  const publishReady = async () => {
    const byProvider = { apns: ready.filter((b) => b.data.provider === 'apns'), fcm: ready.filter((b) => b.data.provider === 'fcm') };
    ready = [];
    await Promise.all([deps.producer.publish(byProvider.apns, WORK_TOPIC.apns), deps.producer.publish(byProvider.fcm, WORK_TOPIC.fcm)]);
    // A million-device audience takes a while: tell the group this consumer is alive.
    await heartbeat();
  };

  const cursor = devices
    .find(audienceFilter(audience, { activeOnly: true }))
    .project<Pick<DeviceDocument, '_id' | 'token' | 'platform'>>({ _id: 1, token: 1, platform: 1 })
    .sort({ _id: 1 })
    .batchSize(2000);
  try {
    for await (const device of cursor) {
      const batch = batcher.add(device);
      if (batch === undefined) continue;
      ready.push(batch);
      if (ready.length >= publishEvery) await publishReady();
    }
  } catch (error) {
    throw wrapMongoError(error);
  } finally {
    await cursor.close().catch(() => undefined);
  }
  ready.push(...batcher.flush());
  await publishReady();

  const targeted = batcher.targeted;
  await deps.producer.publish([
    createEvent(
      'NotificationDispatched',
      { notification_id: data.notification_id, targeted, batches: batcher.batches },
      { project_id: projectId, correlation_id: event.correlation_id },
    ),
  ]);
  deps.logger.info({ notification_id: data.notification_id, targeted, batches: batcher.batches }, 'notification dispatched');
  return targeted;
}

/** Consumer handler: fans out each NotificationRequested, in order; other events pass by. */
export function fanoutHandler(deps: FanoutDeps) {
  return async (records: readonly ConsumedEvent[], context: HandlerContext): Promise<void> => {
    for (const { event } of records) {
      if (event.type === 'NotificationRequested') await fanOut(deps, event, context.heartbeat);
    }
  };
}
