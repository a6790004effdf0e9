import { describe, expect, it } from 'vitest';
import { InfrastructureError, isRetriable } from '@herald/errors';
import type { DeviceResult, DeviceTarget } from '../providers/push-message.ts';
import type { Clock } from '@herald/retry';
import { sendWithRetry, type RetryPolicy } from './retry.ts';

const policy: RetryPolicy = { deadlineMs: 10_000, minMs: 100, maxMs: 2_000, maxAttempts: 3 };
const devices: DeviceTarget[] = ['a', 'b', 'c'].map((id) => ({ device_id: id, token: `t-${id}` }));
const hooks = { isInfrastructure: isRetriable };

function fakeClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return { slept, now: () => now, random: () => 0.5, sleep: async (ms) => void (slept.push(ms), (now += ms)) };
}

const answer = (outcomes: Record<string, DeviceResult['outcome']>, retryAfterMs?: number) => (list: readonly DeviceTarget[]) =>
  list.map((device): DeviceResult => ({ device_id: device.device_id, outcome: outcomes[device.device_id] ?? 'delivered', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }));

describe('sendWithRetry', () => {
  it('sends once when every device gets a final answer', async () => {
    const calls: number[] = [];
    const results = await sendWithRetry(devices, async (list) => (calls.push(list.length), answer({ c: 'token-invalid' })(list)), policy, fakeClock(), hooks);
    expect(calls).toEqual([3]);
    expect(results.map((result) => [result.outcome, result.attempts])).toEqual([['delivered', 1], ['delivered', 1], ['token-invalid', 1]]);
  });

  it('re-sends only retryable devices, waiting at least Retry-After', async () => {
    const clock = fakeClock();
    const calls: string[][] = [];
    const answers = [answer({ b: 'retryable' }, 3_000), answer({})];
    const results = await sendWithRetry(devices, async (list) => (calls.push(list.map((d) => d.device_id)), answers.shift()!(list)), policy, clock, hooks);
    expect(calls).toEqual([['a', 'b', 'c'], ['b']]);
    expect(clock.slept).toEqual([3_000]);
    expect(results.map((result) => [result.device_id, result.outcome, result.attempts])).toEqual([['a', 'delivered', 1], ['b', 'delivered', 2], ['c', 'delivered', 1]]);
  });

  it('ends an attempt at its deadline, starts another after a back-off, and reports the rest AttemptsExhausted with the count', async () => {
    const clock = fakeClock();
    let calls = 0;
    const failures: number[] = [];
    const results = await sendWithRetry(
      devices.slice(0, 1),
      async (list) => (calls++, answer({ a: 'retryable' })(list)),
      { ...policy, deadlineMs: 400 },
      clock,
      { ...hooks, onFailedAttempt: (_error, count) => void failures.push(count) },
    );
    expect(failures).toEqual([1, 2, 3]);
    expect(results).toEqual([{ device_id: 'a', outcome: 'rejected', reason: 'AttemptsExhausted', attempts: 3 }]);
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it('counts a send that throws as a failed attempt and tries the same devices again', async () => {
    let call = 0;
    const calls: string[][] = [];
    const results = await sendWithRetry(
      devices,
      async (list) => {
        calls.push(list.map((d) => d.device_id));
        call += 1;
        if (call === 1) return answer({ b: 'retryable' })(list);
        if (call === 2) throw new Error('provider connection reset');
        return answer({})(list);
      },
      policy,
      fakeClock(),
      hooks,
    );
    expect(calls).toEqual([['a', 'b', 'c'], ['b'], ['b']]);
    expect(results.every((result) => result.outcome === 'delivered')).toBe(true);
  });

  it('throws infrastructure errors without counting an attempt', async () => {
    const failures: number[] = [];
    const failing = sendWithRetry(devices, async () => Promise.reject(new InfrastructureError('MONGO_UNAVAILABLE', 'down')), policy, fakeClock(), { ...hooks, onFailedAttempt: (_e, n) => void failures.push(n) });
    await expect(failing).rejects.toMatchObject({ code: 'MONGO_UNAVAILABLE' });
    expect(failures).toEqual([]);
  });

  it('waits out a provider push-back (429 Retry-After) without using up attempts, and says so', async () => {
    const clock = fakeClock();
    const failures: number[] = [];
    const throttled: Array<[number, string]> = [];
    let call = 0;
    // Rounds of 60 s Retry-After, far past the attempt deadline (10 s) and the attempts (3): still delivered.
    const results = await sendWithRetry(
      devices.slice(0, 1),
      async (list) => (call += 1) <= 5 ? list.map((d): DeviceResult => ({ device_id: d.device_id, outcome: 'retryable', reason: 'QUOTA_EXCEEDED', retryAfterMs: 60_000 })) : answer({})(list),
      policy,
      clock,
      { ...hooks, throttleUntil: 3_600_000, onFailedAttempt: (_e, n) => void failures.push(n), onThrottled: (ms, reason) => void throttled.push([ms, reason]) },
    );
    expect(results).toEqual([{ device_id: 'a', outcome: 'delivered', attempts: 6 }]);
    expect(failures).toEqual([]);
    expect(throttled).toEqual(Array.from({ length: 5 }, () => [60_000, 'QUOTA_EXCEEDED']));
    expect(clock.slept).toEqual(Array.from({ length: 5 }, () => 60_000));
  });

  it('counts push-back as failed attempts once it would wait past its bound (the batch expiry, or the maximum)', async () => {
    const failures: number[] = [];
    const results = await sendWithRetry(
      devices.slice(0, 1),
      async (list) => list.map((d): DeviceResult => ({ device_id: d.device_id, outcome: 'retryable', reason: 'TooManyRequests', retryAfterMs: 60_000 })),
      policy,
      fakeClock(),
      { ...hooks, throttleUntil: 90_000, onFailedAttempt: (_e, n) => void failures.push(n) },
    );
    expect(failures).toEqual([1, 2, 3]);
    expect(results[0]).toMatchObject({ outcome: 'rejected', reason: 'AttemptsExhausted' });
  });

  it('treats a round where only some devices were pushed back as ordinary retries', async () => {
    const failures: number[] = [];
    const throttled: number[] = [];
    await sendWithRetry(
      devices.slice(0, 2),
      async (list) => list.map((d): DeviceResult => ({ device_id: d.device_id, outcome: 'retryable', reason: d.device_id === 'a' ? 'QUOTA_EXCEEDED' : 'UNAVAILABLE', retryAfterMs: 60_000 })),
      policy,
      fakeClock(),
      { ...hooks, throttleUntil: 3_600_000, onFailedAttempt: (_e, n) => void failures.push(n), onThrottled: (ms) => void throttled.push(ms) },
    );
    expect(throttled).toEqual([]);
    expect(failures).toEqual([1, 2, 3]);
  });

  it('hands off: sends once, never waits, and returns the devices still retryable', async () => {
    const clock = fakeClock();
    const calls: string[][] = [];
    const results = await sendWithRetry(devices, async (list) => (calls.push(list.map((d) => d.device_id)), answer({ b: 'retryable' }, 3_000)(list)), policy, clock, { ...hooks, handOff: true });
    expect(calls).toEqual([['a', 'b', 'c']]);
    expect(clock.slept).toEqual([]);
    expect(results.map((result) => [result.device_id, result.outcome, result.attempts])).toEqual([['a', 'delivered', 1], ['b', 'retryable', 1], ['c', 'delivered', 1]]);
    expect(results[1]!.retryAfterMs).toBe(3_000);
  });

  it('hands off every device when the send throws', async () => {
    const clock = fakeClock();
    const results = await sendWithRetry(devices, () => Promise.reject(new Error('boom')), policy, clock, { ...hooks, handOff: true });
    expect(clock.slept).toEqual([]);
    expect(results.map((result) => [result.outcome, result.reason, result.attempts])).toEqual(Array.from({ length: 3 }, () => ['retryable', 'SendFailed', 1]));
  });

  it('counts sends on from those made before the hand-off', async () => {
    const answers = [answer({ a: 'retryable' }), answer({})];
    const results = await sendWithRetry(devices.slice(0, 2), async (list) => answers.shift()!(list), policy, fakeClock(), { ...hooks, sendsBefore: 1 });
    expect(results.map((result) => [result.device_id, result.attempts])).toEqual([['a', 3], ['b', 2]]);
  });
});
