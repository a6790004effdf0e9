/**
 * Pacing arithmetic for a campaign sent at `rate_per_minute` (pure: every
 * instant is passed in, nothing reads a clock). A campaign fanned out over
 * P partition tasks gives each task 1/P of the rate; each task records in
 * its own Kafka record (`pace.next_at`) the earliest instant its next step
 * may leave, so whichever instance runs the task — after a rebalance or a
 * kill -9 — derives the same schedule: no burst, no stall.
 */

/** How long one paced step's worth of pushes lasts at the partition's rate (the slice a step sends). */
export const PACE_SLICE_MS = 500;

/**
 * A paced step later than this (a kill -9, a pause) does not catch up: the
 * bucket holds two slices, so the ordinary lateness of a step (a transaction,
 * a held chunk, a loaded machine) never loses time, and no more than one
 * second's worth ever leaves early.
 */
export const PACE_BURST_MS = 2 * PACE_SLICE_MS;

/** Pushes per second one partition task may send: its equal share of the campaign's rate. */
export function partitionRate(ratePerMinute: number, partitions: number): number {
  return ratePerMinute / 60 / Math.max(1, partitions);
}

/** Devices one paced step reads: a slice's worth at the partition's rate, at least 1, at most the unpaced step. */
export function pacedStepDevices(perSecond: number, maxDevices: number, sliceMs = PACE_SLICE_MS): number {
  return Math.max(1, Math.min(maxDevices, Math.round((perSecond * sliceMs) / 1000)));
}

/** When the k-th push (from 0) of a task started at `start` may leave at `perSecond` (the even schedule). */
export function departureAt(start: number, k: number, perSecond: number): number {
  return start + (k / perSecond) * 1000;
}

/**
 * The token bucket, part 1: the slot a step running at `now` takes, its
 * earliest instant being `nextAt`. A step on time keeps the even schedule
 * (its slot is `nextAt`: no drift from processing); a step later than
 * `burstMs` (its instance was killed, the campaign was paused) restarts the
 * schedule from `now - burstMs`, so at most one burst is sent early to
 * catch up, never the whole gap.
 */
export function slotOf(nextAt: number | undefined, now: number, burstMs = PACE_BURST_MS): number {
  return nextAt === undefined ? now : Math.max(nextAt, now - burstMs);
}

/**
 * Part 2: the earliest instant of the step after one that took `slotAt`
 * and sent `sent` devices, at the current rate. The task records slot and
 * count, not this instant, so a new rate applies to the wait under way.
 */
export function nextAtOf(slotAt: number, sent: number, perSecond: number): number {
  return slotAt + (sent / perSecond) * 1000;
}

/** Both parts: the next step's earliest instant after a step of `devices` ran at `now`. */
export function nextStepAt(nextAt: number | undefined, now: number, devices: number, perSecond: number, burstMs = PACE_BURST_MS): number {
  return nextAtOf(slotOf(nextAt, now, burstMs), devices, perSecond);
}

export type PaceDecision = { kind: 'run' } | { kind: 'wait'; ms: number } | { kind: 'expire' };

/**
 * Whether a paced task's step leaves now. Past the deadline (`max_duration`)
 * the rest expires; paused, it waits; before its slot, it waits until it.
 * The wait is what is left, the caller caps it (a task re-queued after a
 * short hold keeps its partition free for other sends).
 */
export function decidePace(input: { now: number; nextAt?: number | undefined; deadline?: number | undefined; paused: boolean }): PaceDecision {
  const { now, nextAt, deadline, paused } = input;
  if (deadline !== undefined && now >= deadline) return { kind: 'expire' };
  if (paused) return { kind: 'wait', ms: Number.POSITIVE_INFINITY };
  if (nextAt !== undefined && nextAt > now) return { kind: 'wait', ms: nextAt - now };
  return { kind: 'run' };
}

/** The instant `max_duration` seconds after the send was requested (or became due), or none. */
export function deadlineOf(requestedAt: string, maxDurationSeconds: number | undefined): number | undefined {
  return maxDurationSeconds === undefined ? undefined : Date.parse(requestedAt) + maxDurationSeconds * 1000;
}

/** When `remaining` pushes will have left at `ratePerMinute` from `now` (undefined: unpaced, or nothing left to estimate). */
export function etaOf(remaining: number, ratePerMinute: number | undefined, now: number): number | undefined {
  if (ratePerMinute === undefined || ratePerMinute <= 0 || remaining <= 0) return undefined;
  return now + (remaining / ratePerMinute) * 60_000;
}
