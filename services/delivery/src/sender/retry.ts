import { backoffDelay, type BackoffPolicy } from '@herald/kafka';
import type { DeviceResult, DeviceTarget } from '../providers/push-message.ts';

export interface RetryPolicy extends BackoffPolicy {
  /** No try starts later than this after the first. */
  deadlineMs: number;
  /** Sends that may throw (a provider client failing outright) before the batch gives up. */
  maxAttempts: number;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

/** Tries that included the device, with its last answer. */
export type AttemptedResult = DeviceResult & { attempts: number };

/** Reason reported for devices still open when a batch's sends kept throwing. */
export const ATTEMPTS_EXHAUSTED = 'AttemptsExhausted';

/**
 * The sender's one retry loop: sends to every device, then again to those
 * whose answer was retryable (429, 5xx, timeouts) or whose send threw, after
 * a back-off that honours the provider's Retry-After (the one formula of
 * `backoffDelay`), until every device has a final answer, the deadline
 * passes, or `maxAttempts` sends have thrown. What is left is returned
 * `retryable` (with the provider's last reason) or, after throws, rejected
 * as AttemptsExhausted. Errors `isInfrastructure` recognises are not the
 * batch's fault: they are thrown for the caller to retry in place.
 */
export async function sendWithRetry(
  devices: readonly DeviceTarget[],
  send: (devices: readonly DeviceTarget[]) => Promise<DeviceResult[]>,
  policy: RetryPolicy,
  clock: Clock,
  hooks: { isInfrastructure(error: unknown): boolean; onThrow?(error: unknown, failures: number): void },
): Promise<AttemptedResult[]> {
  const started = clock.now();
  const final = new Map<string, AttemptedResult>();
  const tries = new Map<string, number>();
  let pending = [...devices];
  let failures = 0;
  for (let round = 1; pending.length > 0; round += 1) {
    for (const device of pending) tries.set(device.device_id, (tries.get(device.device_id) ?? 0) + 1);
    let retryAfter = 0;
    try {
      const results = await send(pending);
      const open: DeviceTarget[] = [];
      results.forEach((result, index) => {
        final.set(result.device_id, { ...result, attempts: tries.get(result.device_id) ?? 1 });
        if (result.outcome !== 'retryable') return;
        open.push(pending[index]!);
        retryAfter = Math.max(retryAfter, result.retryAfterMs ?? 0);
      });
      pending = open;
    } catch (error) {
      if (hooks.isInfrastructure(error)) throw error;
      failures += 1;
      hooks.onThrow?.(error, failures);
      if (failures >= policy.maxAttempts) {
        for (const device of pending) final.set(device.device_id, { device_id: device.device_id, outcome: 'rejected', reason: ATTEMPTS_EXHAUSTED, attempts: tries.get(device.device_id) ?? 1 });
        break;
      }
    }
    if (pending.length === 0) break;
    const delay = Math.max(retryAfter, backoffDelay(round, policy, clock.random()));
    if (clock.now() + delay - started > policy.deadlineMs) {
      // Out of time: a device whose last send threw has no answer of its own.
      for (const device of pending) if (!final.has(device.device_id)) final.set(device.device_id, { device_id: device.device_id, outcome: 'rejected', reason: ATTEMPTS_EXHAUSTED, attempts: tries.get(device.device_id) ?? 1 });
      break;
    }
    await clock.sleep(delay);
  }
  return devices.map((device) => final.get(device.device_id)!);
}
