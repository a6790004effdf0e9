import { ConfigError } from '@herald/errors';

/** Runs at most `max` tasks at once; the rest wait in arrival order, urgent ones (express-lane sends) ahead of the others. */
export interface Limiter {
  run<T>(task: () => Promise<T>, urgent?: boolean): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function createLimiter(max: number, name = 'concurrency limit'): Limiter {
  if (!Number.isInteger(max) || max < 1) throw new ConfigError([`${name} must be a positive integer`]);
  let active = 0;
  const queue: Array<() => void> = [];
  const urgentQueue: Array<() => void> = [];
  // A finishing task hands its slot straight to the next waiter, so a caller arriving in between cannot overtake it.
  const release = () => {
    const next = urgentQueue.shift() ?? queue.shift();
    if (next === undefined) active -= 1;
    else next();
  };
  return {
    async run(task, urgent = false) {
      if (active < max) active += 1;
      else await new Promise<void>((resolve) => (urgent ? urgentQueue : queue).push(resolve));
      try {
        return await task();
      } finally {
        release();
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
