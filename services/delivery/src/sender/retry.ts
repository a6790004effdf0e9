import { backoffDelay, type BackoffPolicy, type Clock } from '@herald/retry';
import type { DeviceResult, DeviceTarget } from '../providers/push-message.ts';

export interface RetryPolicy extends BackoffPolicy {
  /** How long one attempt retries the devices the provider answered retryable (429, 5xx, timeouts). */
  deadlineMs: number;
  /** Attempts a batch gets: an attempt fails when its send throws or devices are still retryable at its deadline. */
  maxAttempts: number;
}

/** A device's last answer, and how many sends it took (AttemptsExhausted: how many attempts failed). */
export type AttemptedResult = DeviceResult & { attempts: number };

/**
 * Provider push-back on the sender (rather than a failure): APNs 429
 * TooManyRequests (https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns),
 * FCM 429 QUOTA_EXCEEDED / RESOURCE_EXHAUSTED and firebase-admin's
 * rate-exceeded codes (https://firebase.google.com/docs/cloud-messaging/scale-fcm#handling-retries).
 * Devices answered so are retried after Retry-After without using up an
 * attempt, and the project's budget is slowed (ProjectThrottled).
 */
const THROTTLED_REASONS = new Set(['TooManyRequests', 'QUOTA_EXCEEDED', 'RESOURCE_EXHAUSTED', 'messaging/message-rate-exceeded', 'messaging/device-message-rate-exceeded', 'messaging/topics-message-rate-exceeded']);

export const isThrottled = (result: DeviceResult): boolean => result.outcome === 'retryable' && result.reason !== undefined && THROTTLED_REASONS.has(result.reason);

/** Reason a handed-off device carries when the send itself threw (no provider answer). */
export const SEND_FAILED = 'SendFailed';

/** Reason reported for devices still open when a batch used up its attempts. */
export const ATTEMPTS_EXHAUSTED = 'AttemptsExhausted';

/**
 * The sender's one retry loop, on libs/retry's Clock and back-off formula
 * (`backoffDelay`, honouring the provider's Retry-After): sends to every
 * device, then again to those whose answer was retryable, until each has a
 * final answer. An attempt ends when its send throws or its deadline passes
 * with devices still retryable; the next starts after a back-off, for the
 * devices still open. After `maxAttempts` failed attempts they are reported
 * rejected, AttemptsExhausted, with the attempt count. Errors
 * `isInfrastructure` recognises (the store, Kafka, a rebalance) are not the
 * batch's fault: they are thrown, never counted.
 *
 * It keeps its own loop rather than `retry()`: each round sends only the
 * devices still open, a push-back wait is not a failed attempt, and an
 * attempt spans several sends up to its deadline, none of which is one
 * call failing and being called again.
 */
export async function sendWithRetry(
  devices: readonly DeviceTarget[],
  send: (devices: readonly DeviceTarget[]) => Promise<DeviceResult[]>,
  policy: RetryPolicy,
  clock: Clock,
  hooks: {
    isInfrastructure(error: unknown): boolean;
    onFailedAttempt?(error: unknown, failures: number): void;
    /** The provider pushed back (every open device throttled): the wait before the next send, and the reason. */
    onThrottled?(waitMs: number, reason: string): void;
    /** Waits for push-back end no later than this instant (the batch's `expires_at`, or a bound from now); past it they count as failed attempts. */
    throttleUntil?: number;
    /**
     * Send once, never wait: devices still retryable after the first send (or
     * all of them, when it threw) come back `retryable`, for the retry lane to
     * take over, so a batch in trouble never holds its partition.
     */
    handOff?: boolean;
    /** Sends already made to these devices (a handed-off batch): attempts count on from there. */
    sendsBefore?: number;
  },
): Promise<AttemptedResult[]> {
  const final = new Map<string, AttemptedResult>();
  let pending = [...devices];
  let failures = 0;
  let attemptStarted = clock.now();
  for (let round = 1 + (hooks.sendsBefore ?? 0); pending.length > 0; round += 1) {
    let retryAfter = 0;
    let thrown: unknown;
    let throttled: string | undefined;
    try {
      const results = await send(pending);
      const open: DeviceTarget[] = [];
      let allThrottled = true;
      results.forEach((result, index) => {
        final.set(result.device_id, { ...result, attempts: round });
        if (result.outcome !== 'retryable') return;
        open.push(pending[index]!);
        retryAfter = Math.max(retryAfter, result.retryAfterMs ?? 0);
        if (isThrottled(result)) throttled ??= result.reason;
        else allThrottled = false;
      });
      pending = open;
      if (pending.length === 0) break;
      if (!allThrottled) throttled = undefined;
    } catch (error) {
      if (hooks.isInfrastructure(error)) throw error;
      thrown = error;
    }
    if (hooks.handOff === true) {
      if (thrown !== undefined) for (const device of pending) final.set(device.device_id, { device_id: device.device_id, outcome: 'retryable', reason: SEND_FAILED, attempts: round });
      break;
    }
    const delay = Math.max(retryAfter, backoffDelay(round, policy, clock.random()));
    if (throttled !== undefined && hooks.throttleUntil !== undefined && clock.now() + delay <= hooks.throttleUntil) {
      // Push-back, not failure: wait as told, then the attempt starts afresh (its deadline is for the provider's trouble, not its pacing).
      hooks.onThrottled?.(delay, throttled);
      await clock.sleep(delay);
      attemptStarted = clock.now();
      continue;
    }
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
