import { backoffDelay, type BackoffPolicy } from '@herald/kafka';
import type { DeviceResult, DeviceTarget } from '../providers/push-message.ts';

export interface RetryPolicy extends BackoffPolicy {
  /** How long one attempt retries the devices the provider answered retryable (429, 5xx, timeouts). */
  deadlineMs: number;
  /** Attempts a batch gets: an attempt fails when its send throws or devices are still retryable at its deadline. */
  maxAttempts: number;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

/** A device's last answer, and how many sends it took (AttemptsExhausted: how many attempts failed). */
export type AttemptedResult = DeviceResult & { attempts: number };

/** Reason reported for devices still open when a batch used up its attempts. */
export const ATTEMPTS_EXHAUSTED = 'AttemptsExhausted';

/**
 * The sender's one retry loop, with one clock and one back-off formula
 * (`backoffDelay`, honouring the provider's Retry-After): sends to every
 * device, then again to those whose answer was retryable, until each has a
 * final answer. An attempt ends when its send throws or its deadline passes
 * with devices still retryable; the next starts after a back-off, for the
 * devices still open. After `maxAttempts` failed attempts they are reported
 * rejected, AttemptsExhausted, with the attempt count. Errors
 * `isInfrastructure` recognises (the store, Kafka, a rebalance) are not the
 * batch's fault: they are thrown, never counted.
 */
export async function sendWithRetry(
  devices: readonly DeviceTarget[],
  send: (devices: readonly DeviceTarget[]) => Promise<DeviceResult[]>,
  policy: RetryPolicy,
  clock: Clock,
  hooks: { isInfrastructure(error: unknown): boolean; onFailedAttempt?(error: unknown, failures: number): void },
): Promise<AttemptedResult[]> {
  const final = new Map<string, AttemptedResult>();
  let pending = [...devices];
  let failures = 0;
  let attemptStarted = clock.now();
  for (let round = 1; pending.length > 0; round += 1) {
    let retryAfter = 0;
    let thrown: unknown;
    try {
      const results = await send(pending);
      const open: DeviceTarget[] = [];
      results.forEach((result, index) => {
        final.set(result.device_id, { ...result, attempts: round });
        if (result.outcome !== 'retryable') return;
        open.push(pending[index]!);
        retryAfter = Math.max(retryAfter, result.retryAfterMs ?? 0);
      });
      pending = open;
      if (pending.length === 0) break;
    } catch (error) {
      if (hooks.isInfrastructure(error)) throw error;
      thrown = error;
    }
    const delay = Math.max(retryAfter, backoffDelay(round, policy, clock.random()));
    const attemptOver = thrown !== undefined || clock.now() + delay - attemptStarted > policy.deadlineMs;
    if (attemptOver) {
      failures += 1;
      hooks.onFailedAttempt?.(thrown, failures);
      if (failures >= policy.maxAttempts) {
        for (const device of pending) final.set(device.device_id, { device_id: device.device_id, outcome: 'rejected', reason: ATTEMPTS_EXHAUSTED, attempts: failures });
        break;
      }
      await clock.sleep(Math.max(retryAfter, backoffDelay(failures, policy, clock.random())));
      attemptStarted = clock.now();
      continue;
    }
    await clock.sleep(delay);
  }
  return devices.map((device) => final.get(device.device_id)!);
}
