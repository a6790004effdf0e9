import { backoffDelay, type BackoffPolicy } from './backoff.ts';
import { systemClock, type Clock } from './clock.ts';

/**
 * What a failure means. `retry` false: it is thrown at once. `error`, when
 * given, is what the failure is reported and thrown as (a raw client error
 * mapped to what it means, say).
 */
export interface Verdict {
  retry: boolean;
  error?: unknown;
}

export interface RetryOptions {
  /** Judges each failure: a boolean (retry or not) or a Verdict. Default: every failure is retried. */
  classify?(error: unknown): boolean | Verdict;
  /** Attempts in all, the first included (default: no cap). */
  attempts?: number;
  /** Clock instant after which no attempt starts; the last wait is shortened to land on it. */
  deadline?: number;
  /** As `deadline`, but counted from the first failure: how long the work may keep failing. */
  failureWindowMs?: number;
  /** Waits between attempts (default: none, the next attempt starts at once). */
  backoff?: BackoffPolicy;
  clock?: Clock;
  /** Checked before each attempt: false gives up with RetryStopped (a consumer stopping, a partition revoked). */
  active?(): boolean;
  /** Ends a wait early; the retry then stops with RetryStopped. */
  signal?: AbortSignal;
  /** Told of each failure that will be retried, before the wait; a promise it returns is awaited. */
  onRetry?(error: unknown, attempt: number, waitMs: number): void | Promise<void>;
}

/** The retry stopped before an attempt because it was told to (`active()` false or `signal` aborted). */
export class RetryStopped extends Error {
  /** Attempts made before it stopped. */
  readonly attempts: number;
  /** The last failure, if any attempt was made. */
  readonly lastError: unknown;

  constructor(attempts: number, lastError: unknown) {
    super(`retry stopped after ${attempts} attempt(s)`);
    this.name = 'RetryStopped';
    this.attempts = attempts;
    this.lastError = lastError;
  }
}

function verdictOf(options: RetryOptions, raw: unknown): { retry: boolean; error: unknown } {
  const verdict = options.classify === undefined ? true : options.classify(raw);
  if (typeof verdict === 'boolean') return { retry: verdict, error: raw };
  return { retry: verdict.retry, error: 'error' in verdict ? verdict.error : raw };
}

/**
 * Runs `work` until it succeeds, a failure is judged final, the attempts are
 * used up or the deadline is reached (then the last failure is thrown, as
 * classified), or it is stopped (RetryStopped). The one retry loop: callers
 * say what a failure means and how long to keep at it, not how to loop.
 */
export async function retry<T>(work: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const clock = options.clock ?? systemClock;
  const attempts = options.attempts ?? Number.POSITIVE_INFINITY;
  const stopped = () => options.signal?.aborted === true || (options.active !== undefined && !options.active());
  let lastError: unknown;
  let firstFailureAt: number | undefined;
  for (let attempt = 1; ; attempt += 1) {
    if (stopped()) throw new RetryStopped(attempt - 1, lastError);
    try {
      return await work(attempt);
    } catch (raw) {
      const { retry: again, error } = verdictOf(options, raw);
      lastError = error;
      if (!again || attempt >= attempts) throw error;
      const now = clock.now();
      firstFailureAt ??= now;
      let waitMs = options.backoff === undefined ? 0 : backoffDelay(attempt, options.backoff, clock.random());
      const deadline = Math.min(options.deadline ?? Infinity, options.failureWindowMs === undefined ? Infinity : firstFailureAt + options.failureWindowMs);
      if (deadline !== Infinity) {
        if (now >= deadline) throw error;
        waitMs = Math.min(waitMs, deadline - now);
      }
      await options.onRetry?.(error, attempt, waitMs);
      if (waitMs > 0) await clock.sleep(waitMs, options.signal);
    }
  }
}
