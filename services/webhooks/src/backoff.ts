import { backoffDelay } from '@herald/runtime';

/** How a failing endpoint is retried: exponential back-off with full jitter, then a dead letter. */
export interface RetryPolicy {
  /** First wait. */
  minMs: number;
  /** Longest wait between two attempts. */
  maxMs: number;
  /** After this long failing (from the first failed attempt), the delivery is dead-lettered and the endpoint goes on. */
  deadLetterAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { minMs: 500, maxMs: 60_000, deadLetterAfterMs: 3_600_000 };

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1): Herald's one
 * back-off, a ceiling of min·2^(attempt-1) capped at max and a random point
 * between min and it, so many endpoints failing together do not retry in step.
 */
export function backoffMs(attempt: number, policy: Pick<RetryPolicy, 'minMs' | 'maxMs'>, random: number): number {
  return backoffDelay(attempt, { minMs: policy.minMs, maxMs: policy.maxMs, floorMs: policy.minMs }, random);
}

export type RetryDecision = { kind: 'retry'; waitMs: number } | { kind: 'dead-letter' };

/**
 * After failed attempt `attempt` of a delivery whose first attempt failed at
 * `firstFailureAt`: wait and retry, or dead-letter when the next attempt would
 * start past the dead-letter time (the last wait is shortened to land on it).
 */
export function retryDecision(attempt: number, firstFailureAt: number, now: number, policy: RetryPolicy, random: number): RetryDecision {
  const deadline = firstFailureAt + policy.deadLetterAfterMs;
  if (now >= deadline) return { kind: 'dead-letter' };
  return { kind: 'retry', waitMs: Math.min(backoffMs(attempt, policy, random), deadline - now) };
}
