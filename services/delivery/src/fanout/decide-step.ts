import { createEvent, type NotificationRequestedV2, type VariantDecidedV1 } from '@herald/events';
import { dueKey, type HeldRequest, type ScheduleStore } from '@herald/mongo';
import type { DeliveryCounts } from '@herald/read-models';
import { decideWinner, parseIsoDuration, type Arm } from '@herald/templates';
import { decisionScheduleId, remainderFanoutId } from './split-step.ts';

type Request = NotificationRequestedV2['data'];
type Context = { project_id: string; correlation_id?: string | undefined };

/** Counts of an A/B send by variant name (the notifications read model's `by_variant`). */
export type VariantCounts = Readonly<Record<string, Pick<DeliveryCounts, 'delivered' | 'opened'>>>;

/** When an A/B send with a test share decides (pure): `decide_after` after it became due. */
export function decisionAt(request: Request, dueAt: string): Date | undefined {
  if (request.variants === undefined || request.test === undefined) return undefined;
  const seconds = parseIsoDuration(request.test.decide_after);
  return seconds === undefined ? undefined : new Date(Date.parse(dueAt) + seconds * 1000);
}

/**
 * Holds the decision of an A/B send with a test share: its request under
 * `<id>#decide` and one schedule at `decide_after`, which the scheduler
 * announces (NotificationDue) like a `send_at`; idempotent, so a request
 * taken again changes nothing.
 */
export async function holdDecision(schedules: Pick<ScheduleStore, 'hold'>, context: Context, request: Request, dueAt: string, maxAgeMs: number): Promise<void> {
  const at = decisionAt(request, dueAt);
  if (at === undefined) return;
  const id = decisionScheduleId(request.notification_id);
  const held: HeldRequest = {
    _id: id,
    project_id: context.project_id,
    request,
    expires_at: new Date(at.getTime() + maxAgeMs),
    ...(context.correlation_id === undefined ? {} : { correlation_id: context.correlation_id }),
  };
  await schedules.hold(held, [{ _id: id, notification_id: request.notification_id, project_id: context.project_id, state: 'pending', due_at: at, due_key: dueKey(at), created_at: new Date() }]);
}

/**
 * The decision (pure): each variant's open rate (delivered devices that
 * opened, from the read model), the two-proportion test of the best
 * against the runner-up, and the variant the remainder gets: the best when
 * significant, else the send's `fallback` (A unless named).
 */
export function decisionOf(request: Request, counts: VariantCounts, context: Context & { now?: Date }): { event: VariantDecidedV1; winner: number } {
  const variants = request.variants ?? [];
  const names = variants.map((variant) => variant.name);
  const arms: Arm[] = names.map((name) => ({ sent: counts[name]?.delivered ?? 0, opened: Math.min(counts[name]?.opened ?? 0, counts[name]?.delivered ?? 0) }));
  const fallback = Math.max(0, request.fallback === undefined ? 0 : names.indexOf(request.fallback));
  const decision = decideWinner(arms, fallback);
  const order = arms.map((arm, index) => ({ index, rate: arm.sent === 0 ? -1 : arm.opened / arm.sent })).sort((x, y) => y.rate - x.rate || x.index - y.index);
  const runnerUp = order[1]?.index;
  const comparison = decision.comparison;
  const event = createEvent(
    'VariantDecided',
    {
      notification_id: request.notification_id,
      metric: 'open_rate',
      arms: names.map((name, index) => ({ variant: name, delivered: arms[index]!.sent, opened: arms[index]!.opened, rate: arms[index]!.sent === 0 ? null : arms[index]!.opened / arms[index]!.sent })),
      best: names[decision.best]!,
      ...(runnerUp === undefined ? {} : { runner_up: names[runnerUp]! }),
      ...(comparison === undefined ? {} : { difference: comparison.difference, interval: comparison.interval, z: comparison.z, p_value: comparison.pValue }),
      significant: comparison?.significant ?? false,
      chosen: names[decision.winner]!,
      reason: decision.reason,
      remainder_fanout_id: remainderFanoutId(request.notification_id),
    },
    context,
  );
  return { event, winner: decision.winner };
}
