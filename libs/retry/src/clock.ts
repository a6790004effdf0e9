import { setTimeout as wait } from 'node:timers/promises';

/**
 * Time as Herald's waiting code sees it: the one shape every retry, poll and
 * schedule takes, so a test passes one fake instead of three.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** In [0, 1): the jitter source, injected so back-off is testable. */
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => wait(ms, undefined, signal === undefined ? undefined : { signal }).catch(() => undefined),
  random: () => Math.random(),
};
