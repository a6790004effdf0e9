import { createEvent, TOPICS, type CampaignCaps, type NotificationDueV1, type NotificationRequestedV2 } from '@herald/events';
import type { ScheduleStore } from '@herald/mongo';
import type { TopicLookup } from '@herald/audience';
import { highsByPartition, type ConsumedEvent, type Outgoing, type PartitionEnd } from '@herald/kafka';
import type { Logger } from '@herald/log';
import type { Clock } from '@herald/runtime';
import { planTasks } from './plan-tasks.ts';
import { holdSchedules } from '../schedule/hold.ts';
import { isScheduledSend } from '../schedule/slots.ts';
import { decisionOf, holdDecision, type VariantCounts } from './decide-step.ts';
import { isDecisionSchedule } from './split-step.ts';

export interface CoordinatorDeps {
  schedules: Pick<ScheduleStore, 'hold' | 'markFired' | 'request' | 'cancel'>;
  /** Local knowledge of cancels (the control record this writes comes back to every process later). */
  controls: { cancel(notificationId: string): void; isCancelled(notificationId: string): boolean };
  /** End offsets of herald.device-events and herald.topic-events, asked after the records were read. */
  ends(): Promise<{ devices: readonly PartitionEnd[]; topics: readonly PartitionEnd[] }>;
  /** Resolves once this process's topic table has applied topic-events up to these ends. */
  waitForTopics(ends: readonly PartitionEnd[]): Promise<void>;
  topicOf: TopicLookup;
  partitionOf: (key: string, partitionCount: number) => number;
  /** Zones the project's devices registered (for local-time slots) and the project's default zone. */
  registeredZones(projectId: string): Promise<string[]>;
  defaultTimezone(projectId: string): Promise<string | undefined>;
  /** The project's default pace (`herald projects pace`), cached by the caller: no store read per send. */
  projectRate?(projectId: string): Promise<number | undefined>;
  /** The project's frequency cap and quiet hours (cached by the caller), snapshotted into each task. */
  projectCaps?(projectId: string): Promise<CampaignCaps | undefined>;
  /** A deferred batch's record, once its schedule fired (services/delivery/src/schedule/releases.ts). */
  releases?: { batchOf(scheduleId: string): Promise<Outgoing | undefined> };
  /** Schedule decisions (is send_at still ahead?); tests move it. */
  /** Only its time: schedules decide by it. */
  clock: Pick<Clock, 'now'>;
  /** An A/B send's counts by variant now (the notifications read model): what its decision at `decide_after` is made from. */
  variantCounts?(projectId: string, notificationId: string): Promise<VariantCounts | undefined>;
  maxAgeMs: number;
  logger: Logger;
}

/** The request types the coordinator reads; every other notification event passes by undecoded. */
export const COORDINATOR_TYPES = new Set(['NotificationRequested', 'NotificationDue', 'NotificationCancelled', 'NotificationSteered']);

/**
 * The fan-out's first stage (group herald.fanout, on notification-events):
 * takes each request as it comes, records where the log stands (the end of
 * every device-events partition, asked after reading it: anything
 * acknowledged before the send is below those ends), and hands one
 * FanoutTask to each device-events partition the audience can live on.
 * Scheduled sends are held in the store until their NotificationDue;
 * cancels become control records every delivery process follows. The
 * records returned are committed with the chunk's offset in one transaction.
 */
export function coordinatorHandler(deps: CoordinatorDeps) {
  return async (records: readonly ConsumedEvent[]): Promise<Outgoing[]> => {
    const out: Outgoing[] = [];
    const needsEnds = records.some(({ event }) => event.type === 'NotificationDue' || (event.type === 'NotificationRequested' && !isScheduledSend(event.data, deps.clock.now())));
    const ends = needsEnds ? await deps.ends() : undefined;
    if (ends !== undefined) await deps.waitForTopics(ends.topics);
    deps.logger.debug({ records: records.length, device_ends: ends?.devices.map((end) => end.high) }, 'fan-out taking requests');
    const deviceEnds = ends === undefined ? [] : highsByPartition(ends.devices);
    const tooOld: TooOld[] = [];
    for (const record of records) {
      const { event } = record;
      if (event.type === 'NotificationRequested') {
        if (isScheduledSend(event.data, deps.clock.now())) {
          await holdSchedules(deps, event);
          continue;
        }
        // An A/B send with a test share: its decision is held before the request's offset is committed.
        await holdDecision(deps.schedules, event, event.data, event.occurred_at, deps.maxAgeMs);
        out.push(...take(deps, tooOld, event, event.data, event.occurred_at, undefined, deviceEnds, await deps.projectRate?.(event.project_id), await deps.projectCaps?.(event.project_id)));
      } else if (event.type === 'NotificationDue') {
        out.push(...(await due(deps, tooOld, record, event, deviceEnds)));
      } else if (event.type === 'NotificationCancelled') {
        deps.controls.cancel(event.data.notification_id);
        out.push({ event: createEvent('DeliveryControl', { notification_id: event.data.notification_id, cancelled: true }, { project_id: event.project_id, correlation_id: event.correlation_id }), topic: TOPICS.deliveryControl });
        await deps.schedules.cancel(event.data.notification_id);
      } else if (event.type === 'NotificationSteered') {
        // Every delivery process (this one too) applies it when the record comes back through herald.delivery-control, in order with the others.
        const { notification_id: id, state, rate_per_minute: rate } = event.data;
        const data = { notification_id: id, ...(state === undefined ? {} : { paused: state === 'paused' }), ...(rate === undefined ? {} : { rate_per_minute: rate }) };
        out.push({ event: createEvent('DeliveryControl', data, { project_id: event.project_id, correlation_id: event.correlation_id }), topic: TOPICS.deliveryControl });
      }
    }
    // One line per chunk: after an outage the backlog can be a million requests, each also an event (NotificationExpired).
    if (tooOld.length > 0) deps.logger.warn({ count: tooOld.length, first: tooOld[0], last: tooOld.at(-1), max_age_ms: deps.maxAgeMs }, 'notifications too old to send; nothing is queued');
    return out;
  };
}

/** A request taken too late to send (DELIVERY_MAX_AGE_MS). */
interface TooOld {
  notification_id: string;
  requested_at: string;
}

function take(
  deps: CoordinatorDeps,
  tooOld: TooOld[],
  event: { project_id: string; correlation_id?: string | undefined },
  request: NotificationRequestedV2['data'],
  requestedAt: string,
  slot: NotificationDueV1['data']['slot'],
  deviceEnds: readonly number[],
  projectRate?: number,
  caps?: CampaignCaps,
): Outgoing[] {
  const context = { project_id: event.project_id, correlation_id: event.correlation_id };
  if (deps.controls.isCancelled(request.notification_id)) return [];
  if (deps.clock.now() - Date.parse(requestedAt) > deps.maxAgeMs) {
    tooOld.push({ notification_id: request.notification_id, requested_at: requestedAt });
    if (slot !== undefined) return [{ event: createEvent('NotificationDispatched', { notification_id: request.notification_id, targeted: { apns: 0, fcm: 0 }, batches: { apns: 0, fcm: 0 }, slot: slot.at, slots: slot.count }, context) }];
    const reason = `not sent: requested (or due) at ${requestedAt}, longer ago than DELIVERY_MAX_AGE_MS allows`;
    return [{ event: createEvent('NotificationExpired', { notification_id: request.notification_id, reason }, context) }];
  }
  return planTasks({ request, projectId: event.project_id, correlationId: event.correlation_id, requestedAt, slot, deviceEnds, topicOf: deps.topicOf, partitionOf: deps.partitionOf, projectRate, caps });
}

/** A due schedule, once: a repeated announcement (a scheduler whose lease ran out) finds it fired by another record. */
async function due(deps: CoordinatorDeps, tooOld: TooOld[], record: ConsumedEvent, event: NotificationDueV1, deviceEnds: readonly number[]): Promise<Outgoing[]> {
  const { data } = event;
  const firing = await deps.schedules.markFired(data.fanout_id, { partition: record.partition, offset: record.offset }, new Date());
  if (!firing) {
    deps.logger.info({ notification_id: data.notification_id, schedule: data.fanout_id }, 'schedule already fired or cancelled; announcement dropped');
    return [];
  }
  if (data.release === true) {
    // A batch deferred by a frequency cap or quiet hours: queued now, as it was planned (the sender reports it cancelled or expired if it must).
    const batch = await deps.releases?.batchOf(data.fanout_id);
    if (batch === undefined) deps.logger.warn({ notification_id: data.notification_id, schedule: data.fanout_id }, 'deferred batch not found; nothing is released');
    return batch === undefined ? [] : [batch];
  }
  if (isDecisionSchedule(data.fanout_id)) return decide(deps, data, deviceEnds);
  const held = await deps.schedules.request(data.notification_id);
  if (held === null) return [];
  if (data.slot === undefined) await holdDecision(deps.schedules, { project_id: held.project_id, correlation_id: held.correlation_id }, held.request, data.due_at, deps.maxAgeMs);
  return take(deps, tooOld, { project_id: held.project_id, correlation_id: held.correlation_id }, held.request, data.due_at, data.slot, deviceEnds, await deps.projectRate?.(held.project_id), await deps.projectCaps?.(held.project_id));
}

/**
 * An A/B send's `decide_after` (its schedule fired once: markFired): the
 * decision from the read model's counts by variant, as VariantDecided, and
 * the remainder's fan-out (`<id>#remainder`, the winner for every remainder
 * device), committed together with this record's offset: sent once.
 */
async function decide(deps: CoordinatorDeps, data: NotificationDueV1['data'], deviceEnds: readonly number[]): Promise<Outgoing[]> {
  const held = await deps.schedules.request(data.fanout_id);
  if (held === null) return [];
  const context = { project_id: held.project_id, correlation_id: held.correlation_id };
  if (deps.controls.isCancelled(data.notification_id)) return [];
  const counts = (await deps.variantCounts?.(held.project_id, data.notification_id)) ?? {};
  const { event, winner } = decisionOf(held.request, counts, context);
  deps.logger.info({ notification_id: data.notification_id, chosen: event.data.chosen, reason: event.data.reason, p_value: event.data.p_value }, 'A/B test decided; the remainder gets the chosen variant');
  const remainder = planTasks({ request: held.request, projectId: held.project_id, correlationId: held.correlation_id, requestedAt: data.due_at, deviceEnds, topicOf: deps.topicOf, partitionOf: deps.partitionOf, projectRate: await deps.projectRate?.(held.project_id), caps: await deps.projectCaps?.(held.project_id), winner });
  return [{ event }, ...remainder];
}
