import type { DeviceTarget } from '../providers/push-message.ts';
import type { AttemptedResult } from './deliver-with-retry.ts';

export interface AttemptDeps {
  /** One attempt at the devices still open (provider retries within its deadline happen inside). */
  send(devices: readonly DeviceTarget[]): Promise<AttemptedResult[]>;
  /** Failed attempts already recorded for this batch (earlier deliveries of it, other instances). */
  priorFailures: number;
  maxAttempts: number;
  /** Persists one more failed attempt, so the cap holds across redeliveries and restarts. */
  recordFailure(): Promise<void>;
  /** Waits before the next attempt (back-off; heartbeats, so a rebalance stops the wait). */
  between(failures: number): Promise<void>;
  /** Infrastructure errors (store, Kafka, rebalance) are not the batch's fault: they are thrown, never counted. */
  isInfrastructure(error: unknown): boolean;
  onFailure?(error: unknown, failures: number): void;
}

/** Reason reported for devices still open when a batch used up its attempts. */
export const ATTEMPTS_EXHAUSTED = 'AttemptsExhausted';

/**
 * Sends one batch on its own: an attempt fails when the send throws or
 * leaves devices retryable past the provider deadline; only those devices
 * are tried again, after a back-off, until the batch has failed
 * `maxAttempts` times. Devices still open then are reported failed with
 * reason AttemptsExhausted and the attempt count.
 */
export async function sendWithAttempts(devices: readonly DeviceTarget[], deps: AttemptDeps): Promise<AttemptedResult[]> {
  const final = new Map<string, AttemptedResult>();
  let pending = [...devices];
  let failures = deps.priorFailures;
  while (pending.length > 0 && failures < deps.maxAttempts) {
    try {
      const results = await deps.send(pending);
      const open: DeviceTarget[] = [];
      results.forEach((result, index) => {
        if (result.outcome === 'retryable') open.push(pending[index]!);
        else final.set(result.device_id, result);
      });
      pending = open;
      if (pending.length === 0) break;
      deps.onFailure?.(undefined, failures + 1);
    } catch (error) {
      if (deps.isInfrastructure(error)) throw error;
      deps.onFailure?.(error, failures + 1);
    }
    failures += 1;
    await deps.recordFailure();
    if (failures < deps.maxAttempts) await deps.between(failures);
  }
  for (const device of pending) final.set(device.device_id, { device_id: device.device_id, outcome: 'rejected', reason: ATTEMPTS_EXHAUSTED, attempts: failures });
  return devices.map((device) => final.get(device.device_id)!);
}
