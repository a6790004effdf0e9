import { describe, expect, it } from 'vitest';
import { ConfigError } from '@herald/errors';
import { chunk, createLimiter } from './concurrency.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('createLimiter', () => {
  it('never runs more than max tasks, and starts waiters in order', async () => {
    const limiter = createLimiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    let peak = 0;
    const runs = gates.map((gate, index) =>
      limiter.run(async () => {
        started.push(index);
        peak = Math.max(peak, limiter.active);
        await gate.promise;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(limiter.waiting).toBe(2);
    gates[1]!.resolve();
    await runs[1];
    // A caller arriving right as a slot frees must not overtake a waiter.
    const late = limiter.run(async () => 'late');
    gates[0]!.resolve();
    gates[2]!.resolve();
    gates[3]!.resolve();
    expect(await Promise.all([...runs, late])).toEqual([0, 1, 2, 3, 'late']);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
    expect(limiter.active).toBe(0);
  });

  it('starts urgent waiters (express-lane sends) before the others, each in arrival order', async () => {
    const limiter = createLimiter(1);
    const busy = deferred();
    const started: string[] = [];
    const first = limiter.run(() => busy.promise);
    const runs = [
      limiter.run(async () => void started.push('campaign 1')),
      limiter.run(async () => void started.push('campaign 2')),
      limiter.run(async () => void started.push('urgent 1'), true),
      limiter.run(async () => void started.push('urgent 2'), true),
    ];
    expect(limiter.waiting).toBe(4);
    busy.resolve();
    await Promise.all([first, ...runs]);
    expect(started).toEqual(['urgent 1', 'urgent 2', 'campaign 1', 'campaign 2']);
  });

  it('frees the slot when a task fails', async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
  });

  it('bounds the sum of weights, so many light tasks run beside a heavy one, and a heavy waiter is not overtaken', async () => {
    const limiter = createLimiter(500);
    const heavy = deferred();
    const started: string[] = [];
    const first = limiter.run(
      async () => {
        started.push('heavy 400');
        await heavy.promise;
      },
      false,
      400,
    );
    const light = Array.from({ length: 100 }, (_, index) => limiter.run(async () => void started.push(`light ${index}`), false, 1));
    await Promise.all(light);
    expect(started).toHaveLength(101);
    const blocker = deferred();
    const holding = limiter.run(() => blocker.promise, false, 50);
    // 450 of 500 in use: a second heavy task waits, and a light one behind it waits its turn.
    const second = limiter.run(async () => void started.push('heavy 300'), false, 300);
    const behind = limiter.run(async () => void started.push('light behind'), false, 1);
    await Promise.resolve();
    expect(limiter.active).toBe(450);
    expect(limiter.waiting).toBe(2);
    heavy.resolve();
    await Promise.all([first, second, behind]);
    expect(started.slice(-2)).toEqual(['heavy 300', 'light behind']);
    blocker.resolve();
    await holding;
    expect(limiter.active).toBe(0);
    // Heavier than the whole limit: runs alone rather than never.
    expect(await limiter.run(async () => 'huge', false, 5_000)).toBe('huge');
  });

  it('refuses a limit below one', () => {
    expect(() => createLimiter(0, 'APNs maxInFlight')).toThrow(ConfigError);
  });
});

describe('chunk', () => {
  it('cuts into pieces of at most size, in order', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 500)).toEqual([]);
  });
});
