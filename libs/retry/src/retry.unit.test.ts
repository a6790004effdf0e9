import { describe, expect, it } from 'vitest';
import type { Clock } from './clock.ts';
import { retry, RetryStopped } from './retry.ts';

/** A clock that moves only when slept on, and records the waits. */
function fakeClock(random = 1): Clock & { waits: number[] } {
  let now = 1_000;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    random: () => random,
    sleep: (ms) => {
      waits.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

/** Work that fails `failures` times, then answers 'ok'. */
function failing(failures: number, error: Error = new Error('down')) {
  const calls: number[] = [];
  const work = (attempt: number) => {
    calls.push(attempt);
    return calls.length <= failures ? Promise.reject(error) : Promise.resolve('ok');
  };
  return { work, calls };
}

describe('retry', () => {
  it('retries with the back-off until the work succeeds', async () => {
    const clock = fakeClock();
    const { work, calls } = failing(3);
    await expect(retry(work, { clock, backoff: { minMs: 100, maxMs: 250 } })).resolves.toBe('ok');
    expect(calls).toEqual([1, 2, 3, 4]);
    expect(clock.waits).toEqual([100, 200, 250]);
  });

  it('throws the last failure once the attempts are used up', async () => {
    const clock = fakeClock();
    const { work, calls } = failing(5, new Error('still down'));
    await expect(retry(work, { clock, attempts: 3, backoff: { minMs: 10, maxMs: 10 } })).rejects.toThrow('still down');
    expect(calls).toEqual([1, 2, 3]);
    expect(clock.waits).toEqual([10, 10]);
  });

  it('throws a failure the classifier judges final at once, as the classifier maps it', async () => {
    const clock = fakeClock();
    const { work, calls } = failing(5, new Error('raw'));
    const mapped = new Error('mapped');
    await expect(retry(work, { clock, classify: () => ({ retry: false, error: mapped }) })).rejects.toBe(mapped);
    expect(calls).toEqual([1]);
    expect(clock.waits).toEqual([]);
  });

  it('tells onRetry each retried failure, its attempt and its wait', async () => {
    const clock = fakeClock(0);
    const seen: unknown[] = [];
    const { work } = failing(2, new Error('boom'));
    await retry(work, { clock, backoff: { minMs: 100, maxMs: 1_000 }, classify: (error) => ({ retry: true, error: `${(error as Error).message}!` }), onRetry: (error, attempt, waitMs) => void seen.push([error, attempt, waitMs]) });
    expect(seen).toEqual([
      ['boom!', 1, 50],
      ['boom!', 2, 50],
    ]);
  });

  it('shortens the last wait to land on the deadline, then gives up with the last failure', async () => {
    const clock = fakeClock();
    const { work, calls } = failing(10, new Error('late'));
    await expect(retry(work, { clock, deadline: 1_000 + 350, backoff: { minMs: 100, maxMs: 1_000 } })).rejects.toThrow('late');
    expect(clock.waits).toEqual([100, 200, 50]);
    expect(calls).toEqual([1, 2, 3, 4]);
  });

  it('keeps failing for at most failureWindowMs from the first failure, the last wait landing on its end', async () => {
    const clock = fakeClock();
    const calls: number[] = [];
    const work = async (attempt: number) => {
      calls.push(attempt);
      if (attempt === 1) await clock.sleep(5_000); // a slow first attempt: the window starts when it fails, not before
      throw new Error('refused');
    };
    await expect(retry(work, { clock, failureWindowMs: 1_000, backoff: { minMs: 300, maxMs: 10_000, floorMs: 300 } })).rejects.toThrow('refused');
    expect(clock.waits).toEqual([5_000, 300, 600, 100]);
    expect(calls).toEqual([1, 2, 3, 4]);
  });

  it('stops before an attempt once it is no longer active, naming the attempts made', async () => {
    const clock = fakeClock();
    const { work, calls } = failing(10, new Error('x'));
    const stopped = await retry(work, { clock, active: () => calls.length < 2 }).catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(RetryStopped);
    expect((stopped as RetryStopped).attempts).toBe(2);
    expect(((stopped as RetryStopped).lastError as Error).message).toBe('x');
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    const { work, calls } = failing(0);
    await expect(retry(work, { signal: controller.signal })).rejects.toBeInstanceOf(RetryStopped);
    expect(calls).toEqual([]);
  });

  it('retries at once without a back-off', async () => {
    const clock = fakeClock();
    const { work } = failing(2);
    await expect(retry(work, { clock, attempts: 3 })).resolves.toBe('ok');
    expect(clock.waits).toEqual([]);
  });
});
