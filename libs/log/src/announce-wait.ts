import type { Logger } from './create-logger.ts';

/** How often a wait that has not ended says so. */
export const ANNOUNCE_WAIT_EVERY_MS = 5_000;

/**
 * Resolves as `waiting` does; while it has not, logs once every
 * `everyMs` what it waits for and since when (with `detail()`'s answer
 * then, e.g. which partitions are behind), so nothing waits silently: an
 * operator reading the log of a process that is not ready sees why. A wait
 * that ends within `everyMs` logs nothing.
 */
export async function announceWait<T>(
  logger: Pick<Logger, 'warn'>,
  what: string,
  waiting: Promise<T>,
  detail: () => Record<string, unknown> = () => ({}),
  everyMs = ANNOUNCE_WAIT_EVERY_MS,
): Promise<T> {
  const since = Date.now();
  const timer = setInterval(() => {
    logger.warn({ waiting_for: what, since: new Date(since).toISOString(), waited_ms: Date.now() - since, ...detail() }, 'still waiting at start-up');
  }, everyMs);
  timer.unref();
  try {
    return await waiting;
  } finally {
    clearInterval(timer);
  }
}
