import { describe, expect, it } from 'vitest';
import { InfrastructureError, isRetriable } from '@herald/errors';
import type { DeviceTarget } from '../providers/push-message.ts';
import type { AttemptedResult } from './deliver-with-retry.ts';
import { sendWithAttempts, type AttemptDeps } from './send-with-attempts.ts';

const devices: DeviceTarget[] = ['a', 'b', 'c'].map((id) => ({ device_id: id, token: `t-${id}` }));

function deps(send: AttemptDeps['send'], overrides: Partial<AttemptDeps> = {}) {
  const recorded: number[] = [];
  const built: AttemptDeps = {
    send,
    priorFailures: 0,
    maxAttempts: 3,
    recordFailure: async () => void recorded.push(1),
    between: async () => undefined,
    isInfrastructure: isRetriable,
    ...overrides,
  };
  return { built, recorded };
}

const delivered = (list: readonly DeviceTarget[]): AttemptedResult[] => list.map((device) => ({ device_id: device.device_id, outcome: 'delivered', attempts: 1 }));

describe('sendWithAttempts', () => {
  it('sends once when the batch succeeds', async () => {
    const calls: number[] = [];
    const { built, recorded } = deps(async (list) => {
      calls.push(list.length);
      return delivered(list);
    });
    expect((await sendWithAttempts(devices, built)).map((result) => result.outcome)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(calls).toEqual([3]);
    expect(recorded).toHaveLength(0);
  });

  it('retries only the devices left open, after a thrown send too', async () => {
    const calls: string[][] = [];
    let call = 0;
    const { built, recorded } = deps(async (list) => {
      calls.push(list.map((device) => device.device_id));
      call += 1;
      if (call === 1) return list.map((device) => ({ device_id: device.device_id, outcome: device.device_id === 'b' ? 'retryable' : 'delivered', attempts: 2 }));
      if (call === 2) throw new Error('provider connection reset');
      return delivered(list);
    });
    const results = await sendWithAttempts(devices, built);
    expect(results.every((result) => result.outcome === 'delivered')).toBe(true);
    expect(calls).toEqual([['a', 'b', 'c'], ['b'], ['b']]);
    expect(recorded).toHaveLength(2);
  });

  it('caps attempts, counting earlier ones, and reports the rest AttemptsExhausted with the count', async () => {
    let calls = 0;
    const { built, recorded } = deps(
      async () => {
        calls += 1;
        throw new Error('provider answers garbage');
      },
      { priorFailures: 1, maxAttempts: 3 },
    );
    const results = await sendWithAttempts(devices, built);
    expect(calls).toBe(2);
    expect(recorded).toHaveLength(2);
    expect(results).toEqual(devices.map((device) => ({ device_id: device.device_id, outcome: 'rejected', reason: 'AttemptsExhausted', attempts: 3 })));
  });

  it('throws infrastructure errors without counting an attempt', async () => {
    const { built, recorded } = deps(async () => {
      throw new InfrastructureError('KAFKA_UNAVAILABLE', 'down');
    });
    await expect(sendWithAttempts(devices, built)).rejects.toMatchObject({ code: 'KAFKA_UNAVAILABLE' });
    expect(recorded).toHaveLength(0);
  });
});
