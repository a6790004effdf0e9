import { createEvent, TOPICS, type DeliveryBatchV1, type NotificationRequestedV1, type Provider } from '@herald/events';
import { audienceFilter, resolveAudience, splitTargets, topicLookupFilter } from '@herald/audience';
import type { DeviceDocument, ReadModelRegistry, TopicDocument } from '@herald/mongo';
import { wrapMongoError } from '@herald/mongo';
import type { ConsumedEvent, EventProducer, HandlerContext } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { createBatcher } from './batcher.ts';
import { planFanout, type FanoutProgressStore } from './progress.ts';

export interface FanoutDeps {
  producer: Pick<EventProducer, 'publish'>;
  readModels: ReadModelRegistry;
  progress: FanoutProgressStore;
  logger: Logger;
  /**
   * Devices read between two progress records. Each group's partly filled
   * batches are cut at its end, so a restart resumes exactly after the
   * group's last device; a crash repeats at most one group.
   */
  devicesPerGroup?: number;
  /** Older requests are dispatched to nobody: a push hours late is worse than none, and a reset group must not resend history. */
  maxAgeMs?: number;
}

/** Whether a request is too old to send (pure, for the handler and its tests). */
export function isExpired(event: Pick<NotificationRequestedV1, 'occurred_at'>, maxAgeMs: number | undefined, now: number): boolean {
  return maxAgeMs !== undefined && now - Date.parse(event.occurred_at) > maxAgeMs;
}

export const WORK_TOPIC = { apns: TOPICS.deliveriesApns, fcm: TOPICS.deliveriesFcm } as const;

type PerProvider = Record<Provider, number>;

/**
 * Resolves one notification's audience and queues its delivery batches:
 * the devices are streamed from MongoDB with a cursor in id order (never
 * loaded whole), cut into batches of up to 500 per provider, and written to
 * the work topics group by group, recording progress before each group;
 * then NotificationDispatched says how many were targeted. A fan-out that
 * was interrupted resumes after the last device it queued (see progress.ts).
 */
export async function fanOut(deps: FanoutDeps, event: NotificationRequestedV1, heartbeat: () => Promise<void> = async () => undefined): Promise<PerProvider> {
  const { data } = event;
  const projectId = event.project_id;
  const notificationId = data.notification_id;
  const expired = isExpired(event, deps.maxAgeMs, Date.now());
  const plan = planFanout(await deps.progress.load(notificationId), expired);
  if (plan.kind === 'announce') {
    if (expired) deps.logger.warn({ notification_id: notificationId, requested_at: event.occurred_at, targeted: plan.targeted }, 'notification too old to send; nothing more is queued');
    await announce(deps, event, plan.targeted, plan.batches);
    return plan.targeted;
  }

  const spec = splitTargets(data.targets);
  const topics = await deps.readModels.collection<TopicDocument>('topics');
  const devices = await deps.readModels.collection<DeviceDocument>('devices');
  const named = spec.names.length === 0 ? [] : await topics.find(topicLookupFilter(projectId, spec)).project<Pick<TopicDocument, '_id' | 'name'>>({ _id: 1, name: 1 }).toArray();
  const audience = resolveAudience(projectId, spec, named);

  const batcher = createBatcher({
    notificationId,
    projectId,
    correlationId: event.correlation_id,
    start: plan.start,
    message: {
      title: data.title,
      body: data.body,
      ...(data.link_to === undefined ? {} : { link_to: data.link_to }),
      ...(data.group === undefined ? {} : { group: data.group }),
    },
  });
  const devicesPerGroup = deps.devicesPerGroup ?? 10_000;
  // What the last recorded progress vouches for: devices up to `after` are queued.
  let queued = { after: plan.after, targeted: plan.start?.targeted ?? batcher.targeted };
  let ready: DeliveryBatchV1[] = [];
  let lastDeviceId: string | undefined;
  let inGroup = 0;
  const publishGroup = async () => {
    const group = [...ready, ...batcher.flush()];
    ready = [];
    inGroup = 0;
    if (group.length === 0) return;
    // Reserve the group's sequence numbers before it goes out (see progress.ts).
    await deps.progress.save(notificationId, { ...queued, sequence: batcher.batches, dispatched: false });
    const byProvider = { apns: group.filter((b) => b.data.provider === 'apns'), fcm: group.filter((b) => b.data.provider === 'fcm') };
    await Promise.all([deps.producer.publish(byProvider.apns, WORK_TOPIC.apns), deps.producer.publish(byProvider.fcm, WORK_TOPIC.fcm)]);
    queued = { after: lastDeviceId, targeted: batcher.targeted };
    // A million-device audience takes a while: tell the group this consumer is alive.
    await heartbeat();
  };

  const cursor = devices
    .find(audienceFilter(audience, { activeOnly: true, afterDeviceId: plan.after }))
    .project<Pick<DeviceDocument, '_id' | 'token' | 'platform'>>({ _id: 1, token: 1, platform: 1 })
    .sort({ _id: 1 })
    .batchSize(2000);
  try {
    for await (const device of cursor) {
      lastDeviceId = device._id;
      const batch = batcher.add(device);
      if (batch !== undefined) ready.push(batch);
      inGroup += 1;
      if (inGroup >= devicesPerGroup) await publishGroup();
    }
  } catch (error) {
    throw wrapMongoError(error);
  } finally {
    await cursor.close().catch(() => undefined);
  }
  await publishGroup();

  const targeted = batcher.targeted;
  await deps.progress.save(notificationId, { ...queued, sequence: batcher.batches, dispatched: true });
  await announce(deps, event, targeted, batcher.batches);
  return targeted;
}

async function announce(deps: FanoutDeps, event: NotificationRequestedV1, targeted: PerProvider, batches: PerProvider): Promise<void> {
  const notificationId = event.data.notification_id;
  await deps.producer.publish([
    createEvent('NotificationDispatched', { notification_id: notificationId, targeted, batches }, { project_id: event.project_id, correlation_id: event.correlation_id }),
  ]);
  deps.logger.info({ notification_id: notificationId, targeted, batches }, 'notification dispatched');
}

/** Consumer handler: fans out each NotificationRequested, in order; other events pass by. */
export function fanoutHandler(deps: FanoutDeps) {
  return async (records: readonly ConsumedEvent[], context: HandlerContext): Promise<void> => {
    for (const { event } of records) {
      if (event.type === 'NotificationRequested') await fanOut(deps, event, context.heartbeat);
    }
  };
}
