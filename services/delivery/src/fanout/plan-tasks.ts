import { createEvent, PushOptionFields, type FanoutMessageV2, type CampaignCaps, type FanoutSlot, type FanoutTaskV2, type NotificationRequestedV2 } from '@herald/events';
import { partitionsOf, resolveAudience, segmentLookupOf, type TopicLookup } from '@herald/audience';
import type { Outgoing } from '@herald/kafka';
import { deadlineOf } from '../control/pace.ts';
import { remainderFanoutId } from './split-step.ts';

const PUSH_OPTION_KEYS = Object.keys(PushOptionFields) as Array<keyof typeof PushOptionFields>;

/** What every batch of the notification carries: the content and the push options the client set (pure). */
export function messageOf(request: NotificationRequestedV2['data']): FanoutMessageV2 {
  const options = Object.fromEntries(PUSH_OPTION_KEYS.flatMap((key) => (request[key] === undefined ? [] : [[key, request[key]]])));
  return {
    title: request.title,
    body: request.body,
    ...(request.link_to === undefined ? {} : { link_to: request.link_to }),
    ...(request.group === undefined ? {} : { group: request.group }),
    ...options,
    // What each device's content is made from (content-step.ts): carried by the first step's record only.
    ...(request.template === undefined ? {} : { template: request.template }),
    ...(request.localizations === undefined ? {} : { localizations: request.localizations }),
    // An A/B send: the variants and shares each device is assigned by (split-step.ts).
    ...(request.variants === undefined ? {} : { split: { variants: request.variants, holdout_percent: request.holdout_percent ?? 0, ...(request.test === undefined ? {} : { test_percent: request.test.percent }) } }),
  };
}

export interface TaskPlanInput {
  request: NotificationRequestedV2['data'];
  projectId: string;
  correlationId?: string | undefined;
  /** When it was requested, or when it became due (expiry counts from it). */
  requestedAt: string;
  slot?: FanoutSlot | undefined;
  /** End offset of every device-events partition, taken after the request was read. */
  deviceEnds: readonly number[];
  topicOf: TopicLookup;
  partitionOf: (key: string, partitionCount: number) => number;
  /** The project's default `rate_per_minute` (`herald projects pace`), for a request that sets none. */
  projectRate?: number | undefined;
  /** The project's frequency cap and quiet hours now (`herald projects caps` / `quiet-hours`): each task carries them, so no step reads settings. */
  caps?: CampaignCaps | undefined;
  /** An A/B send's remainder, after its VariantDecided: every remainder device gets variant `winner` (fan-out `<id>#remainder`). */
  winner?: number | undefined;
}

/**
 * One FanoutTask per device-events partition the audience can live on
 * (pure), each to be run by the instance holding that partition's index,
 * once its index has applied everything before `wait_for`. Topic names are
 * resolved here, once, so every partition decides on the same audience.
 */
export function planTasks(input: TaskPlanInput): Outgoing[] {
  const { request, projectId } = input;
  const partitionCount = input.deviceEnds.length;
  // Saved segments are the versions the send pinned (NotificationRequested's `segments`), never the store's now.
  const audience = resolveAudience(projectId, request.targets, input.topicOf, segmentLookupOf(request.segments));
  const partitions = partitionsOf(projectId, audience, (key) => input.partitionOf(key, partitionCount), partitionCount);
  const fanoutId = input.winner !== undefined ? remainderFanoutId(request.notification_id) : input.slot === undefined ? request.notification_id : `${request.notification_id}@${input.slot.index}`;
  // An A/B send with a test share dispatches its test and, after the decision, its remainder.
  const phase = request.variants === undefined || request.test === undefined ? {} : { split_phase: input.winner === undefined ? ('test' as const) : ('remainder' as const) };
  const context = { project_id: projectId, correlation_id: input.correlationId };
  if (partitions.length === 0) {
    // The targets name nothing that can exist (a topic the project does not have): dispatched to nobody, at once.
    const none = { apns: 0, fcm: 0 };
    const slot = phase.split_phase !== undefined ? { slot: phase.split_phase, slots: 2 } : input.slot === undefined ? {} : { slot: input.slot.at, slots: input.slot.count };
    return [{ event: createEvent('NotificationDispatched', { notification_id: request.notification_id, targeted: none, batches: none, ...slot }, context) }];
  }
  const planned = messageOf(request);
  const message = input.winner === undefined || planned.split === undefined ? planned : { ...planned, split: { ...planned.split, winner: input.winner } };
  // A transactional send is never paced: the project's default pace is not copied onto it.
  const rate = request.priority_lane === 'transactional' ? undefined : (request.rate_per_minute ?? input.projectRate);
  const pace = rate === undefined ? {} : { pace: { rate_per_minute: rate, ...(request.rate_per_minute === undefined ? { from_project: true } : {}) } };
  const deadline = deadlineOf(input.requestedAt, request.max_duration);
  return partitions.map((partition): Outgoing => {
    const data: FanoutTaskV2['data'] = {
      notification_id: request.notification_id,
      fanout_id: fanoutId,
      partition,
      partitions: partitions.length,
      ...(partitions.length === partitionCount ? {} : { covers: partitions }),
      step: 0,
      requested_at: input.requestedAt,
      wait_for: input.deviceEnds[partition] ?? 0,
      audience,
      message,
      sequence: { apns: 0, fcm: 0 },
      targeted: { apns: 0, fcm: 0 },
      ...(input.slot === undefined ? {} : { slot: input.slot }),
      ...pace,
      ...(request.priority_lane === undefined ? {} : { lane: request.priority_lane }),
      ...(deadline === undefined ? {} : { deadline: new Date(deadline).toISOString() }),
      ...(input.caps === undefined ? {} : { caps: input.caps }),
      ...phase,
    };
    return { event: createEvent('FanoutTask', data, context), partition };
  });
}
