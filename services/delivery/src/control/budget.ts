/**
 * A project's budget (`herald projects budget`, pushes per second across
 * every delivery instance together) and the priority lanes that share it
 * (pure: every instant is passed in). The budget is split equally over the
 * fan-out's partitions; each partition's owner keeps one token bucket per
 * project, which every fan-out step of the project on that partition draws
 * from. Campaign steps wait for tokens; transactional steps never wait and
 * may take the bucket below zero, so the project's campaigns slow down
 * while its transactional sends flow.
 */
import { PACE_SLICE_MS } from './pace.ts';
import type { PacePlan } from '../fanout/task-step.ts';

export type PriorityLane = 'transactional' | 'campaign';

/**
 * How far transactional sends may take a bucket below zero: at most this
 * long of the budget is owed, so a burst of urgent sends holds the
 * project's campaigns for at most this long afterwards.
 */
export const BUDGET_DEBT_MS = 5_000;

export interface Bucket {
  /** Pushes that may leave now (negative: owed by transactional sends). */
  tokens: number;
  /** The instant `tokens` was computed at. */
  at: number;
}

/** Pushes per second one partition's owner may send for the project: its equal share of the budget. */
export function partitionBudget(perSecond: number, partitions: number): number {
  return perSecond / Math.max(1, partitions);
}

/** The most a bucket holds: one slice of the partition's share (at least one push), so no more than a slice ever leaves at once. */
export function bucketCapacity(perSecond: number, sliceMs = PACE_SLICE_MS): number {
  return Math.max(1, (perSecond * sliceMs) / 1000);
}

/**
 * A bucket seen for the first time — the partition just came to this
 * process after a rebalance or a kill -9 of its previous owner — starts
 * empty: the new owner sends its first slice a slice's time later, so the
 * hand-over never bursts (at most the old owner's last slice and the new
 * owner's first leave within one slice) and never stalls longer than one slice.
 */
export function emptyBucket(now: number): Bucket {
  return { tokens: 0, at: now };
}

/**
 * The bucket at `now`: refilled at `perSecond` up to one slice. A provider
 * push-back (`throttledUntil`, from ProjectThrottled) stops the refill until
 * then and empties the bucket, so the project restarts from nothing after
 * its Retry-After rather than with a burst.
 */
export function refill(bucket: Bucket, perSecond: number, now: number, throttledUntil?: number): Bucket {
  const capacity = bucketCapacity(perSecond);
  let { tokens, at } = bucket;
  if (throttledUntil !== undefined && throttledUntil > at) {
    tokens = Math.min(tokens, 0);
    at = throttledUntil;
  }
  if (now <= at) return { tokens, at };
  return { tokens: Math.min(capacity, tokens + ((now - at) * perSecond) / 1000), at: now };
}

/** Takes `devices` from a refilled bucket: below zero at most BUDGET_DEBT_MS of the share. */
export function spend(bucket: Bucket, devices: number, perSecond: number): Bucket {
  return { tokens: Math.max(bucket.tokens - devices, -(perSecond * BUDGET_DEBT_MS) / 1000), at: bucket.at };
}

export type BudgetDecision = { kind: 'run'; limit: number } | { kind: 'wait'; ms: number };

/**
 * Whether a campaign step of the project leaves now, and with how many
 * devices at most: it waits until the refilled bucket holds a whole slice
 * (so a budgeted campaign moves in slices, not one push per Kafka
 * transaction), then takes what the bucket holds. `throttledUntil` in the
 * future: wait until then.
 */
export function decideBudget(bucket: Bucket, perSecond: number, now: number, throttledUntil?: number): BudgetDecision {
  if (throttledUntil !== undefined && throttledUntil > now) return { kind: 'wait', ms: throttledUntil - now };
  const refilled = refill(bucket, perSecond, now, throttledUntil);
  const need = bucketCapacity(perSecond);
  if (refilled.tokens + 1e-9 < need) return { kind: 'wait', ms: Math.ceil(((need - refilled.tokens) / perSecond) * 1000) };
  return { kind: 'run', limit: Math.max(1, Math.floor(refilled.tokens + 1e-9)) };
}

/**
 * Steps of a declared transactional send that never wait for the budget:
 * the first (≤ 1,000 devices per partition) and the next (≤ a full step,
 * 10,000 by default). Later steps still go on the express lane but wait for
 * the budget like a campaign's, so labelling a million-device campaign
 * `transactional` does not escape the project's budget.
 */
export const TRANSACTIONAL_UNHELD_STEPS = 2;

/**
 * The lane a step's budget treats it as: a declared transactional send is
 * transactional for its first TRANSACTIONAL_UNHELD_STEPS steps, a declared
 * campaign always campaign; a task forwarded to a token holder is
 * transactional (a handful of devices); otherwise the first step is
 * transactional (a send whose partition share fits it never waits for the
 * budget; what it sends is still drawn) and later steps are campaign.
 */
export function budgetLane(task: { lane?: PriorityLane | undefined; forwarded?: boolean | undefined; step: number }): PriorityLane {
  if (task.lane === 'transactional') return task.step < TRANSACTIONAL_UNHELD_STEPS || task.forwarded === true ? 'transactional' : 'campaign';
  if (task.lane !== undefined) return task.lane;
  if (task.forwarded === true) return 'transactional';
  return task.step === 0 ? 'transactional' : 'campaign';
}

/**
 * The work topics one step's batches go to: transactional sends on the
 * express lane on every step, campaign sends on the campaign lane even when
 * small; without `priority_lane`, by size (`bySize`: the whole audience of
 * the partition fitted its first step). A forwarded task (a few token
 * holders) is express; what `max_duration` expires is reported on the campaign lane.
 */
export function workLane(task: { lane?: PriorityLane | undefined; forwarded?: boolean | undefined }, bySize: 'express' | 'campaign', expiring: boolean): 'express' | 'campaign' {
  if (expiring) return 'campaign';
  if (task.forwarded === true || task.lane === 'transactional') return 'express';
  if (task.lane === 'campaign') return 'campaign';
  return bySize;
}

/** A step's pace combined with what the budget allows (pure): the smaller limit; a wait of either is a wait. */
export function budgeted(plan: PacePlan, budget: BudgetDecision | undefined): PacePlan {
  if (budget === undefined || plan.kind !== 'run') return plan;
  if (budget.kind === 'wait') return budget;
  return { ...plan, limit: Math.min(plan.limit, budget.limit) };
}
