import { describe, expect, it } from 'vitest';
import type { DeviceResult, DeviceTarget } from '../providers/push-message.ts';
import { backoffMs, deliverWithRetry, type Clock } from './deliver-with-retry.ts';

const policy = { deadlineMs: 10_000, baseDelayMs: 100, maxDelayMs: 2_000 };
const devices: DeviceTarget[] = [
  { device_id: 'a', token: 'ta' },
  { device_id: 'b', token: 'tb' },
];

function fakeClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return { slept, now: () => now, random: () => 0.5, sleep: async (ms) => void (slept.push(ms), (now += ms)) };
}

describe('backoffMs', () => {
  it('doubles up to the ceiling, with jitter between half and all of it', () => {
    expect(backoffMs(1, policy, 0)).toBe(50);
    expect(backoffMs(1, policy, 1)).toBe(100);
    expect(backoffMs(3, policy, 1)).toBe(400);
    expect(backoffMs(10, policy, 1)).toBe(2_000);
  });
});

describe('deliverWithRetry', () => {
  it('re-sends only retryable devices, waiting at least Retry-After', async () => {
    const clock = fakeClock();
    const calls: string[][] = [];
    const answers: DeviceResult[][] = [
      [
        { device_id: 'a', outcome: 'delivered' },
        { device_id: 'b', outcome: 'retryable', reason: 'TooManyRequests', retryAfterMs: 3_000 },
      ],
      [{ device_id: 'b', outcome: 'delivered' }],
    ];
    const results = await deliverWithRetry(devices, async (batch) => (calls.push(batch.map((d) => d.device_id)), answers.shift()!), policy, clock);
    expect(calls).toEqual([['a', 'b'], ['b']]);
    expect(clock.slept).toEqual([3_000]);
    expect(results).toEqual([
      { device_id: 'a', outcome: 'delivered', attempts: 1 },
      { device_id: 'b', outcome: 'delivered', attempts: 2 },
    ]);
  });

  it('stops at the deadline and leaves the rest retryable', async () => {
    const clock = fakeClock();
    const results = await deliverWithRetry(
      devices.slice(0, 1),
      async () => [{ device_id: 'a', outcome: 'retryable', reason: 'ServiceUnavailable' }],
      { ...policy, deadlineMs: 1_000 },
      clock,
    );
    // Tries at 0, 75, 225 and 525 ms; the next would start at 1125 ms, past the deadline.
    expect(results).toEqual([{ device_id: 'a', outcome: 'retryable', reason: 'ServiceUnavailable', attempts: 4 }]);
    expect(clock.slept).toEqual([75, 150, 300]);
    expect(clock.now()).toBeLessThanOrEqual(1_000);
  });

  it('does not retry final answers', async () => {
    const clock = fakeClock();
    let calls = 0;
    await deliverWithRetry(devices, async (batch) => (calls++, batch.map((d) => ({ device_id: d.device_id, outcome: 'token-invalid' as const }))), policy, clock);
    expect(calls).toBe(1);
  });
});
