import { ConfigError } from '@herald/errors';

/**
 * Runs tasks while their weights (default 1 each) sum to at most `max`; the
 * rest wait in arrival order, urgent ones (express-lane sends) ahead of the
 * others. A task heavier than `max` runs alone.
 */
export interface Limiter {
  run<T>(task: () => Promise<T>, urgent?: boolean, weight?: number): Promise<T>;
  /** The weight of the tasks running. */
  readonly active: number;
  readonly waiting: number;
}

interface Waiter {
  units: number;
  start: () => void;
}

export function createLimiter(max: number, name = 'concurrency limit'): Limiter {
  if (!Number.isInteger(max) || max < 1) throw new ConfigError([`${name} must be a positive integer`]);
  let active = 0;
  const queue: Waiter[] = [];
  const urgentQueue: Waiter[] = [];
  // Waiters start in order, and only at a release: a caller arriving in between cannot overtake them.
  const startWaiters = () => {
    for (;;) {
      const waiters = urgentQueue.length > 0 ? urgentQueue : queue;
      const next = waiters[0];
      if (next === undefined || active + next.units > max) return;
      waiters.shift();
      active += next.units;
      next.start();
    }
  };
  return {
    async run(task, urgent = false, weight = 1) {
      const units = Math.min(max, Math.max(1, weight));
      if (queue.length === 0 && urgentQueue.length === 0 && active + units <= max) active += units;
      else await new Promise<void>((start) => (urgent ? urgentQueue : queue).push({ units, start }));
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

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
