import type { FanoutTaskV1 } from '@herald/events';
import { countOne, cutBatches, providerFor, type CutLimits, type PerProvider, type PlannedBatch } from './batcher.ts';
import type { Page } from '@herald/audience-index';
import type { Steering } from '../control/delivery-controls.ts';
import { decidePace, nextAtOf, pacedStepDevices, partitionRate, slotOf } from '../control/pace.ts';

/** How far a partition task got: what its next step starts from (carried by the task record itself). */
export interface TaskProgress {
  step: number;
  /** The last ordinal examined; the next page starts past it. */
  after?: number | undefined;
  /** The next free batch sequence number per provider. */
  sequence: PerProvider;
  /** Devices in planned batches, per provider. */
  targeted: PerProvider;
}

export interface StepPlan {
  batches: PlannedBatch[];
  /** Where the next step starts. */
  next: TaskProgress;
  /** The audience of this partition is exhausted: announce the dispatch once these batches are out. */
  done: boolean;
  /**
   * A task whose whole audience fitted in its first step is a small send: its
   * batches take the express lane, so they never queue behind a campaign's.
   */
  lane: 'express' | 'campaign';
}

export function progressOf(task: FanoutTaskV1['data']): TaskProgress {
  return { step: task.step, after: task.after, sequence: task.sequence, targeted: task.targeted };
}

/**
 * One step of a partition task (pure): a page of its audience in, the
 * page's batches and the progress after it out. Batch ids come from the
 * progress, and a step is committed with its batches and its continuation
 * in one transaction, so a sequence number is never used twice.
 */
export function planStep(progress: TaskProgress, page: Page, limits: CutLimits): StepPlan {
  const { batches, next: sequence } = cutBatches(page.rows, progress.sequence, limits);
  const targeted = { ...progress.targeted };
  for (const row of page.rows) countOne(targeted, providerFor(row.platform));
  const done = page.exhausted;
  return {
    batches,
    next: { step: progress.step + 1, after: page.after ?? progress.after, sequence, targeted },
    done,
    lane: progress.step === 0 && done ? 'express' : 'campaign',
  };
}

export type TaskDecision = { kind: 'run' } | { kind: 'stop'; reason: 'expired' | 'cancelled' };

/** Whether a task goes on (pure): a cancelled notification, or one requested longer ago than `maxAgeMs`, queues nothing more. */
export function decideTask(task: Pick<FanoutTaskV1['data'], 'requested_at'>, now: number, maxAgeMs: number, cancelled: boolean): TaskDecision {
  if (cancelled) return { kind: 'stop', reason: 'cancelled' };
  if (now - Date.parse(task.requested_at) > maxAgeMs) return { kind: 'stop', reason: 'expired' };
  return { kind: 'run' };
}

/** What a paced, paused or time-bounded step does now: run (with how many devices), wait, or expire the rest. */
export type PacePlan =
  | { kind: 'run'; limit: number; paced?: { perSecond: number; slotAt: number; ratePerMinute: number } }
  | { kind: 'wait'; ms: number }
  | { kind: 'expire'; limit: number };

/**
 * The pace of one step (pure): the rate in effect is the latest PATCH's,
 * else the request's (or the project's default); each partition task sends
 * its 1/`partitions` share, a slice at a time, each slice leaving at the
 * instant the recorded slot and count give (so whichever instance runs it
 * derives the same schedule). Paused: wait. Past `deadline`: what is left
 * is queued at once, to be reported `expired` by the senders. A task
 * forwarded to a token's holder is not paced (a handful of devices).
 */
export function planPace(task: FanoutTaskV1['data'], steering: Steering, now: number, limits: { first: number; step: number }): PacePlan {
  const unpaced = task.step === 0 ? Math.min(limits.first, limits.step) : limits.step;
  // A transactional send is never paced (the API refuses a rate on one; the project's default and a PATCH do not apply).
  const ratePerMinute = task.lane === 'transactional' ? undefined : (steering.ratePerMinute ?? task.pace?.rate_per_minute);
  const perSecond = ratePerMinute === undefined || task.forwarded === true ? undefined : partitionRate(ratePerMinute, task.partitions);
  const recorded = task.pace?.slot_at === undefined ? undefined : { slotAt: Date.parse(task.pace.slot_at), sent: task.pace.sent ?? 0 };
  const nextAt = perSecond === undefined || recorded === undefined ? undefined : nextAtOf(recorded.slotAt, recorded.sent, perSecond);
  const decision = decidePace({ now, nextAt, deadline: task.deadline === undefined ? undefined : Date.parse(task.deadline), paused: steering.paused });
  if (decision.kind === 'expire') return { kind: 'expire', limit: limits.step };
  if (decision.kind === 'wait') return decision;
  // The project's default pace leaves the first step alone (a send that fits it is a small send, never slowed), unless the send declared itself a campaign.
  const smallSendExempt = task.step === 0 && task.pace?.from_project === true && steering.ratePerMinute === undefined && task.lane !== 'campaign';
  if (perSecond === undefined || ratePerMinute === undefined || smallSendExempt) return { kind: 'run', limit: unpaced };
  return { kind: 'run', limit: Math.min(unpaced, pacedStepDevices(perSecond, limits.step)), paced: { perSecond, slotAt: slotOf(nextAt, now), ratePerMinute } };
}

/**
 * How long after the request the steps after a fan-out's first wait (ms).
 * The delivery process runs the fan-out and the senders on one thread: the
 * second steps of every partition (10,000 devices each, read and batched at
 * once) used to push the first batch's send back by half a second at 1M.
 */
export const FIRST_STEP_HEAD_START_MS = 500;

/**
 * How long a task waits so that its fan-out's first step goes out alone
 * (pure): the second step (step 1) of an unpaced send waits until
 * FIRST_STEP_HEAD_START_MS after the request; any other step, or a fan-out
 * that starts later than that (a schedule, a backlog), not at all.
 */
export function headStartWait(task: Pick<FanoutTaskV1['data'], 'step' | 'requested_at' | 'forwarded'>, now: number): number {
  if (task.step !== 1 || task.forwarded === true) return 0;
  return Math.max(0, Date.parse(task.requested_at) + FIRST_STEP_HEAD_START_MS - now);
}

/** The pace the continuation records: the slot this step took and what it queued, or the task's own (unpaced step). */
export function paceAfter(task: FanoutTaskV1['data'], plan: PacePlan, queued: number): FanoutTaskV1['data']['pace'] {
  if (plan.kind !== 'run' || plan.paced === undefined) return task.pace;
  return { rate_per_minute: task.pace?.rate_per_minute ?? plan.paced.ratePerMinute, slot_at: new Date(plan.paced.slotAt).toISOString(), sent: queued, ...(task.pace?.from_project === true ? { from_project: true } : {}) };
}
