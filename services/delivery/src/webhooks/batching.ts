/** Optional batching: send once `maxEvents` are waiting or the oldest has waited `maxWaitMs` (1 and 0: one event per request). */
export interface BatchPolicy {
  maxEvents: number;
  maxWaitMs: number;
}

/** When the waiting events should be sent: now (`0`), after a wait (ms), or never (nothing waits). */
export function flushDelay(waiting: number, oldestAt: number | undefined, now: number, policy: BatchPolicy): number | undefined {
  if (waiting === 0 || oldestAt === undefined) return undefined;
  if (waiting >= policy.maxEvents) return 0;
  return Math.max(0, oldestAt + policy.maxWaitMs - now);
}
