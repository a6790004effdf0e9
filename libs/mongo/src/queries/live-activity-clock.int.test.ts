import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '@herald/testing';
import { nextLiveActivityTimestamp } from '@herald/push-payloads';
import { LiveActivityClock } from './live-activity-clock.ts';

let env: TestEnv;
let clock: LiveActivityClock;
const T = 1_700_000_000_000;
const at = (nowMs: number) => (last: number | undefined) => nextLiveActivityTimestamp(last, nowMs);

beforeAll(async () => {
  env = await createTestEnv('live-activity-clock');
  clock = new LiveActivityClock(env.mongo.db);
});
afterAll(async () => {
  await env?.close();
});

describe('LiveActivityClock over the real store', () => {
  it('starts at now and rises strictly within one second, per activity and project', async () => {
    expect(await clock.next('p1', 'a1', at(T))).toBe(T / 1000);
    expect(await clock.next('p1', 'a1', at(T + 100))).toBe(T / 1000 + 1);
    expect(await clock.next('p1', 'a1', at(T + 5_000))).toBe(T / 1000 + 5);
    expect(await clock.next('p1', 'a2', at(T))).toBe(T / 1000);
    expect(await clock.next('p2', 'a1', at(T))).toBe(T / 1000);
  });

  it('never gives two concurrent callers the same timestamp', async () => {
    const given = await Promise.all(Array.from({ length: 8 }, () => clock.next('p1', 'race', at(T))));
    expect(new Set(given).size).toBe(8);
    expect([...given].sort((a, b) => a - b)).toEqual(Array.from({ length: 8 }, (_, n) => T / 1000 + n));
  });

  it('starts afresh once forgotten', async () => {
    await clock.next('p1', 'gone', at(T + 60_000));
    await clock.forget('p1', 'gone');
    expect(await clock.next('p1', 'gone', at(T))).toBe(T / 1000);
  });
});
