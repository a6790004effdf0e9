/** Optional batching: send once `maxEvents` are waiting or the oldest has waited `maxWaitMs` (1 and 0: one event per request). */
export interface BatchPolicy {
  maxEvents: number;
  maxWaitMs: number;
  /** Bytes of event JSON that make a request big enough to send at once, whatever the count (bounds a request's body). */
  maxBytes: number;
}

/** A request carries about this much event JSON at most (one event may be larger: it goes alone). */
export const WEBHOOK_BATCH_MAX_BYTES = 1_048_576;

/** When the waiting events should be sent: now (`0`), after a wait (ms), or never (nothing waits). */
export function flushDelay(waiting: number, oldestAt: number | undefined, now: number, policy: BatchPolicy, bytes = 0): number | undefined {
  if (waiting === 0 || oldestAt === undefined) return undefined;
  if (waiting >= policy.maxEvents || bytes >= policy.maxBytes) return 0;
  return Math.max(0, oldestAt + policy.maxWaitMs - now);
}
