import { createEvent, deliveryBatchId, PushOptionFields, TOPICS, type DeliveryBatchV1, type FanoutStepV1, type NotificationRequestedV1, type Provider } from '@herald/events';
import { resolveAudience, splitTargets, topicLookupFilter } from '@herald/audience';
import type { ReadModelRegistry } from '@herald/mongo';
import type { DeviceDocument, TopicDocument, TopicMembersDocument } from '@herald/projections';
import { wrapMongoError } from '@herald/mongo';
import type { ConsumedEvent, EventProducer } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { BATCH_BYTE_BUDGET, BATCH_SIZE, type AudienceRow, type PerProvider, type PlannedBatch } from './batcher.ts';
import { recordBatches, type FanoutProgressStore, type RecordedBatch } from './progress.ts';
import { decideStep, laneFor, stepFanout, type FanoutState } from './step.ts';
import type { AudienceSource } from './audience-source.ts';
import type { CancellationStore } from '../cancellations.ts';
import type { Clock } from '@herald/runtime';
import type { ScheduleStore } from '../schedule/schedule-store.ts';
import { isScheduledSend, planLocalSlots } from '../schedule/slots.ts';

export interface FanoutDeps {
  producer: Pick<EventProducer, 'publish'>;
  readModels: ReadModelRegistry;
  /** Reads each step's page of the audience (keyset on MongoDB, a held scan on FerretDB). */
  audience: AudienceSource;
  progress: FanoutProgressStore;
  logger: Logger;
  /** Audience devices one step reads and queues (one keyset page); a longer audience continues in FanoutStep records. */
  stepDevices?: number;
  /** Devices per batch (tests use fewer). */
  batchSize?: number;
  /** Older requests are dispatched to nobody: a push hours late is worse than none, and a reset group must not resend history. */
  maxAgeMs?: number;
  /** A cancelled notification queues nothing more; the fan-out records NotificationCancelled here. */
  cancellations: Pick<CancellationStore, 'isCancelled' | 'cancel'>;
  /** Where a request for later is held until the scheduler fires it. */
  schedules: Pick<ScheduleStore, 'save'>;
  /** The project's default zone for local-time sends (UTC when unset). */
  defaultTimezone(projectId: string): Promise<string | undefined>;
  /** Schedule decisions (is send_at still ahead?); tests move it. */
  clock: Clock;
}

/** Whether a request is too old to send (pure, for the handler and its tests). */
export function isExpired(requestedAt: string, maxAgeMs: number | undefined, now: number): boolean {
  return maxAgeMs !== undefined && now - Date.parse(requestedAt) > maxAgeMs;
}

export const WORK_TOPIC = {
  campaign: { apns: TOPICS.deliveriesApns, fcm: TOPICS.deliveriesFcm },
  express: { apns: TOPICS.deliveriesApnsExpress, fcm: TOPICS.deliveriesFcmExpress },
} as const;
export const DEFAULT_STEP_DEVICES = 10_000;
/** The first step reads less, so the first batch leaves after one short read whatever the audience's size. */
export const FIRST_STEP_DEVICES = 1_000;

/** One step's work item: the request (step 0) or a continuation. */
export interface StepItem {
  /** The work item's event id: only the record that planned a step replays it. */
  id: string;
  /** Names this fan-out's progress and batch ids: the notification id, or `<id>@<slot>` for one slot of a local-time send. */
  fanoutId: string;
  step: number;
  projectId: string;
  correlationId: string | undefined;
  requestedAt: string;
  request: Omit<FanoutStepV1['data'], 'step' | 'requested_at'>;
}

export function itemOf(event: NotificationRequestedV1 | FanoutStepV1): StepItem {
  const { step, requested_at, ...request } = event.type === 'FanoutStep' ? event.data : { ...event.data, step: 0, requested_at: event.occurred_at };
  const fanoutId = request.slot === undefined ? request.notification_id : `${request.notification_id}@${request.slot.index}`;
  return { id: event.id, fanoutId, step, projectId: event.project_id, correlationId: event.correlation_id, requestedAt: requested_at, request };
}

const PUSH_OPTION_KEYS = Object.keys(PushOptionFields) as Array<keyof typeof PushOptionFields>;

/** What every batch of the notification carries: the content and the push options the client set. */
function messageOf(request: StepItem['request']): DeliveryBatchV1['data']['message'] {
  const options = Object.fromEntries(PUSH_OPTION_KEYS.flatMap((key) => (request[key] === undefined ? [] : [[key, request[key]]])));
  return {
    title: request.title,
    body: request.body,
    ...(request.link_to === undefined ? {} : { link_to: request.link_to }),
    ...(request.group === undefined ? {} : { group: request.group }),
    ...options,
  };
}

function batchEvent(item: StepItem, batch: PlannedBatch): DeliveryBatchV1 {
  const notificationId = item.request.notification_id;
  return createEvent(
    'DeliveryBatch',
    { batch_id: deliveryBatchId(item.fanoutId, batch.provider, batch.sequence), notification_id: notificationId, provider: batch.provider, sequence: batch.sequence, message: messageOf(item.request), devices: batch.devices },
    { project_id: item.projectId, correlation_id: item.correlationId },
  );
}

/** Encoded bytes of a batch's envelope with no device: what the byte budget must leave room for. */
function envelopeBytes(item: StepItem): number {
  return Buffer.byteLength(JSON.stringify(batchEvent(item, { provider: 'apns', sequence: Number.MAX_SAFE_INTEGER, devices: [] })));
}

/**
 * Handles one step of a notification's fan-out: plans it from the recorded
 * progress (or replays what was planned), records the plan, publishes its
 * batches, then either hands the rest to a FanoutStep record (so other
 * notifications' steps run in between) or announces NotificationDispatched.
 * Returns the targeted counts once the fan-out is done, undefined while it goes on.
 */
export async function fanOutStep(deps: FanoutDeps, item: StepItem): Promise<PerProvider | undefined> {
  const notificationId = item.request.notification_id;
  const progressId = item.fanoutId;
  const logger = deps.logger.child({ notification_id: notificationId, step: item.step, ...(item.request.slot === undefined ? {} : { slot: item.request.slot.at }) });
  const progress = await deps.progress.load(progressId);
  const expired = isExpired(item.requestedAt, deps.maxAgeMs, Date.now());
  const cancelled = !expired && progress?.dispatched !== true && (await deps.cancellations.isCancelled(notificationId));
  const decision = decideStep(progress, item.step, item.id, expired || cancelled);
  switch (decision.kind) {
    case 'skip':
      logger.debug({ reason: decision.reason, recorded_step: progress?.step }, 'fan-out step already done');
      return undefined;
    case 'announce': {
      if (expired) logger.warn({ requested_at: item.requestedAt, targeted: decision.targeted }, 'notification too old to send; nothing more is queued');
      else if (cancelled) logger.info({ targeted: decision.targeted }, 'notification cancelled; nothing more is queued');
      if (progress?.dispatched !== true) await deps.progress.save(progressId, progress ?? { step: -1, sequence: decision.batches, targeted: decision.targeted, exhausted: false }, [], true);
      if (expired && item.request.slot === undefined && decision.targeted.apns + decision.targeted.fcm === 0) {
        const reason = `not sent: requested (or due) at ${item.requestedAt}, longer ago than DELIVERY_MAX_AGE_MS allows`;
        await deps.producer.publish([createEvent('NotificationExpired', { notification_id: notificationId, reason }, { project_id: item.projectId, correlation_id: item.correlationId })]);
      }
      await announce(deps, item, decision.targeted, decision.batches);
      return decision.targeted;
    }
    case 'replay': {
      logger.info({ batches: progress?.inflight.length }, 'republishing a planned fan-out step under its own batch ids');
      await publishBatches(deps, item, await rebuild(deps, item, progress?.inflight ?? []), laneFor(decision.state));
      return next(deps, item, decision.state);
    }
    case 'plan': {
      const stepDevices = deps.stepDevices ?? DEFAULT_STEP_DEVICES;
      const pageSize = decision.state.step < 0 ? Math.min(FIRST_STEP_DEVICES, stepDevices) : stepDevices;
      const page = await readPage(deps, item, decision.state.after, pageSize);
      const { state, batches } = stepFanout(decision.state, page, { pageSize, maxDevices: deps.batchSize ?? BATCH_SIZE, maxDeviceBytes: BATCH_BYTE_BUDGET - envelopeBytes(item) });
      // Recorded before anything goes out (see the invariant in progress.ts).
      if (!(await deps.progress.savePlan(progressId, decision.state.step, state, recordBatches(batches), item.id))) {
        logger.warn('another work item planned this step first; leaving it to that one');
        return undefined;
      }
      await publishBatches(deps, item, batches, laneFor(state));
      return next(deps, item, state);
    }
  }
}

async function next(deps: FanoutDeps, item: StepItem, state: FanoutState): Promise<PerProvider | undefined> {
  if (!state.exhausted) {
    const { request } = item;
    await deps.producer.publish([createEvent('FanoutStep', { ...request, step: item.step + 1, requested_at: item.requestedAt }, { project_id: item.projectId, correlation_id: item.correlationId })]);
    return undefined;
  }
  await deps.progress.save(item.fanoutId, state, [], true);
  await announce(deps, item, state.targeted, state.sequence);
  return state.targeted;
}

async function readPage(deps: FanoutDeps, item: StepItem, after: string | undefined, pageSize: number): Promise<AudienceRow[]> {
  try {
    const spec = splitTargets(item.request.targets);
    const topics = await deps.readModels.collection<TopicDocument>('topics');
    const devices = await deps.readModels.collection<DeviceDocument>('devices');
    const topicMembers = await deps.readModels.collection<TopicMembersDocument>('topic_members');
    const named = spec.names.length === 0 ? [] : await topics.find(topicLookupFilter(item.projectId, spec)).project<Pick<TopicDocument, '_id' | 'name'>>({ _id: 1, name: 1 }).toArray();
    const slot = item.request.slot;
    const zones = slot === undefined ? undefined : { zones: slot.zones, includeUnset: slot.include_unset };
    return await deps.audience.page({ fanoutId: item.fanoutId, devices, topicMembers, audience: resolveAudience(item.projectId, spec, named), zones, after, limit: pageSize });
  } catch (error) {
    throw wrapMongoError(error);
  }
}

/** The recorded batches with their tokens: a device id's token never changes (the id is derived from it). */
async function rebuild(deps: FanoutDeps, item: StepItem, recorded: readonly RecordedBatch[]): Promise<PlannedBatch[]> {
  if (recorded.length === 0) return [];
  const ids = recorded.flatMap((batch) => batch.device_ids);
  const tokens = new Map<string, string>();
  try {
    const devices = await deps.readModels.collection<DeviceDocument>('devices');
    for (const row of await devices.find({ project_id: item.projectId, _id: { $in: ids } }).project<Pick<DeviceDocument, '_id' | 'token'>>({ _id: 1, token: 1 }).toArray()) tokens.set(row._id, row.token);
  } catch (error) {
    throw wrapMongoError(error);
  }
  return recorded.map((batch) => ({
    provider: batch.provider,
    sequence: batch.sequence,
    // Devices are never deleted, so each id is found; one that were could not be sent anyway.
    devices: batch.device_ids.flatMap((id) => (tokens.has(id) ? [{ device_id: id, token: tokens.get(id)! }] : [])),
  }));
}

/**
 * Publishes batches to their provider's work topic in requests of at most
 * one byte budget each, in the step's lane (one batch may be close to the broker's limit, and
 * the records of one request that share a partition form one record batch).
 */
async function publishBatches(deps: FanoutDeps, item: StepItem, batches: readonly PlannedBatch[], lane: keyof typeof WORK_TOPIC): Promise<void> {
  const topics = WORK_TOPIC[lane];
  const publishProvider = async (provider: Provider) => {
    let group: DeliveryBatchV1[] = [];
    let bytes = 0;
    for (const batch of batches.filter((planned) => planned.provider === provider)) {
      const event = batchEvent(item, batch);
      const size = Buffer.byteLength(JSON.stringify(event));
      if (group.length > 0 && bytes + size > BATCH_BYTE_BUDGET) {
        await deps.producer.publish(group, topics[provider]);
        group = [];
        bytes = 0;
      }
      group.push(event);
      bytes += size;
    }
    if (group.length > 0) await deps.producer.publish(group, topics[provider]);
  };
  // Settle both before failing: a retry must not race a publish still in flight.
  const failed = (await Promise.allSettled([publishProvider('apns'), publishProvider('fcm')])).find((result) => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

async function announce(deps: FanoutDeps, item: StepItem, targeted: PerProvider, batches: PerProvider): Promise<void> {
  const notificationId = item.request.notification_id;
  const slot = item.request.slot;
  const data = { notification_id: notificationId, targeted, batches, ...(slot === undefined ? {} : { slot: slot.at, slots: slot.count }) };
  await deps.producer.publish([createEvent('NotificationDispatched', data, { project_id: item.projectId, correlation_id: item.correlationId })]);
  deps.logger.info({ notification_id: notificationId, targeted, batches, ...(slot === undefined ? {} : { slot: slot.at }) }, 'notification dispatched');
}

/**
 * Holds a request for later: one schedule at `send_at`, or one per slot of a
 * local-time send. The zones are every zone the runtime knows plus any the
 * project's devices registered (aliases included); devices without one go
 * with the project's default zone.
 */
async function schedule(deps: FanoutDeps, event: NotificationRequestedV1): Promise<void> {
  const { data } = event;
  const base = { notification_id: data.notification_id, project_id: event.project_id, request: data, state: 'pending' as const, created_at: new Date(), ...(event.correlation_id === undefined ? {} : { correlation_id: event.correlation_id }) };
  if (data.send_at_local === undefined) {
    await deps.schedules.save([{ ...base, _id: data.notification_id, due_at: new Date(data.send_at!) }]);
    deps.logger.info({ notification_id: data.notification_id, send_at: data.send_at }, 'send held until its time');
    return;
  }
  let registered: string[];
  try {
    const devices = await deps.readModels.collection<DeviceDocument>('devices');
    registered = (await devices.distinct('timezone', { project_id: event.project_id })).filter((zone): zone is string => typeof zone === 'string');
  } catch (error) {
    throw wrapMongoError(error);
  }
  const defaultZone = (await deps.defaultTimezone(event.project_id)) ?? 'UTC';
  const slots = planLocalSlots(data.send_at_local, [...Intl.supportedValuesOf('timeZone'), ...registered], defaultZone);
  await deps.schedules.save(slots.map((slot) => ({ ...base, _id: `${data.notification_id}@${slot.index}`, due_at: new Date(slot.at), slot })));
  deps.logger.info({ notification_id: data.notification_id, send_at_local: data.send_at_local, slots: slots.length, first: slots[0]?.at }, 'local-time send held in time-zone slots');
}

/**
 * Consumer handler for the fan-out group: each NotificationRequested is
 * step 0 and each FanoutStep a later step; other events pass by. Each
 * record is at most one step's work, so a partition never waits long.
 */
export function fanoutHandler(deps: FanoutDeps) {
  return async (records: readonly ConsumedEvent[]): Promise<void> => {
    for (const { event } of records) {
      if (event.type === 'NotificationRequested' && isScheduledSend(event.data, deps.clock.now())) await schedule(deps, event);
      else if (event.type === 'NotificationRequested' || event.type === 'FanoutStep') await fanOutStep(deps, itemOf(event));
      else if (event.type === 'NotificationCancelled') await deps.cancellations.cancel(event.data.notification_id, event.project_id, event.occurred_at);
    }
  };
}
