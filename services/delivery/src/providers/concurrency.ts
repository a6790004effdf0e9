import { ConfigError } from '@herald/errors';

/**
 * Runs tasks while their weights (default 1 each) sum to at most `max`; the
 * rest wait in arrival order, urgent ones (express-lane sends) ahead of the
 * others. A task heavier than `max` runs alone. `max` may be a function,
 * read at each start: a smaller answer lets the running tasks finish and
 * starts no more until they fit under it.
 */
export interface Limiter {
  run<T>(task: () => Promise<T>, urgent?: boolean, weight?: number): Promise<T>;
  /** The weight of the tasks running. */
  readonly active: number;
  readonly waiting: number;
}

interface Waiter {
  weight: number;
  start: (units: number) => void;
}

export function createLimiter(max: number | (() => number), name = 'concurrency limit'): Limiter {
  if (typeof max === 'number' && (!Number.isInteger(max) || max < 1)) throw new ConfigError([`${name} must be a positive integer`]);
  const limit = typeof max === 'number' ? () => max : () => Math.max(1, Math.floor(max()));
  let active = 0;
  const queue: Waiter[] = [];
  const urgentQueue: Waiter[] = [];
  // Waiters start in order, and only at a release: a caller arriving in between cannot overtake them.
  const startWaiters = () => {
    const now = limit();
    for (;;) {
      const waiters = urgentQueue.length > 0 ? urgentQueue : queue;
      const next = waiters[0];
      if (next === undefined) return;
      // Units are taken at the start, against the limit of that moment (it may have changed while this task waited).
      const units = Math.min(now, next.weight);
      if (active + units > now) return;
      waiters.shift();
      active += units;
      next.start(units);
    }
  };
  return {
    async run(task, urgent = false, weight = 1) {
      const now = limit();
      let units = Math.min(now, Math.max(1, weight));
      if (queue.length === 0 && urgentQueue.length === 0 && active + units <= now) active += units;
      else units = await new Promise<number>((start) => (urgent ? urgentQueue : queue).push({ weight: Math.max(1, weight), start }));
      try {
        return await task();
      } finally {
        active -= units;
        startWaiters();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length + urgentQueue.length;
    },
  };
}

/** A window set for the whole fleet, as this process's part of it (`share` in (0, 1]): at least 1. */
export function windowShare(window: number, share: number): number {
  return Math.max(1, Math.ceil(window * share));
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
