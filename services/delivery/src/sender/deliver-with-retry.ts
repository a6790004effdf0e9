import type { DeviceResult, DeviceTarget } from '../providers/push-message.ts';

export interface RetryPolicy {
  /** Give up on retryable devices once the next try would start later than this after the first. */
  deadlineMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

export type AttemptedResult = DeviceResult & { attempts: number };

/** Exponential back-off with jitter: half fixed, half random, so retries from many senders spread out. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/**
 * Sends to every device, then re-sends to those whose outcome was retryable
 * (429, 5xx, timeouts) after a back-off that honours the provider's
 * Retry-After, until they get a final answer or the deadline passes; those
 * left are returned still `retryable`, for the caller to report as failed.
 */
export async function deliverWithRetry(
  devices: readonly DeviceTarget[],
  send: (devices: readonly DeviceTarget[]) => Promise<DeviceResult[]>,
  policy: RetryPolicy,
  clock: Clock,
): Promise<AttemptedResult[]> {
  const started = clock.now();
  const final = new Map<string, AttemptedResult>();
  let pending = [...devices];
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    const results = await send(pending);
    const retry: DeviceTarget[] = [];
    let retryAfter = 0;
    results.forEach((result, index) => {
      final.set(result.device_id, { ...result, attempts: attempt });
      if (result.outcome === 'retryable') {
        retry.push(pending[index]!);
        retryAfter = Math.max(retryAfter, result.retryAfterMs ?? 0);
      }
    });
    if (retry.length === 0) break;
    const delay = Math.max(retryAfter, backoffMs(attempt, policy, clock.random()));
    if (clock.now() + delay - started > policy.deadlineMs) break;
    await clock.sleep(delay);
    pending = retry;
  }
  return devices.map((device) => final.get(device.device_id)!);
}
