import type { FanoutTaskV1 } from '@herald/events';
import { cutBatches, providerFor, type CutLimits, type PerProvider, type PlannedBatch } from './batcher.ts';
import type { Page } from '../index/read-page.ts';

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
  for (const row of page.rows) targeted[providerFor(row.platform)] += 1;
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
