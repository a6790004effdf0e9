import type { RetryOptions } from '@herald/runtime';

/** How a failing endpoint is retried: exponential back-off with full jitter, then a dead letter. */
export interface RetryPolicy {
  /** First wait, and the shortest. */
  minMs: number;
  /** Longest wait between two attempts. */
  maxMs: number;
  /** After this long failing (from the first failed attempt), the delivery is dead-lettered and the endpoint goes on. */
  deadLetterAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { minMs: 500, maxMs: 60_000, deadLetterAfterMs: 3_600_000 };

/**
 * The retry toolkit's options for a webhook delivery (pure): waits from min
 * (never shorter) doubling to max, jittered so many endpoints failing
 * together do not retry in step; no attempt starts past the dead-letter
 * time, and the last wait is shortened to land on it.
 */
export function webhookRetry(policy: RetryPolicy): Pick<RetryOptions, 'backoff' | 'failureWindowMs'> {
  return { backoff: { minMs: policy.minMs, maxMs: policy.maxMs, floorMs: policy.minMs }, failureWindowMs: policy.deadLetterAfterMs };
}
