/** Bounded exponential back-off with jitter. */
export interface BackoffPolicy {
  /** The ceiling of the first wait; each later one doubles it. */
  minMs: number;
  /** The highest ceiling: no wait is longer. */
  maxMs: number;
  /** The shortest wait (default `minMs / 2`); a wait whose ceiling is lower waits its ceiling. */
  floorMs?: number;
}

/** The back-off of consumers, commits and transactions: 50 ms to 100 ms first, at most 5 s. */
export const DEFAULT_BACKOFF: BackoffPolicy = { minMs: 100, maxMs: 5_000 };

/**
 * The wait after failed attempt `attempt` (counted from 1): a ceiling of
 * minMs·2^(attempt-1) capped at maxMs, and a uniformly random point between
 * the floor and it ("full jitter" above a floor), so many clients failing
 * together spread out instead of stampeding. `random` in [0, 1].
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: number): number {
  const ceiling = Math.min(policy.maxMs, policy.minMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
  const floor = Math.min(policy.floorMs ?? policy.minMs / 2, ceiling);
  return Math.round(floor + (ceiling - floor) * random);
}
