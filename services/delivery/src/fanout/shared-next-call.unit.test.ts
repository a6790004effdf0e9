import { describe, expect, it } from 'vitest';
import { sharedNextCall } from './shared-next-call.ts';

describe('sharedNextCall', () => {
  it('runs once for the calls made before it started, and again for a call made after', async () => {
    let runs = 0;
    let release!: () => void;
    const read = sharedNextCall(async () => {
      runs += 1;
      const run = runs;
      await new Promise<void>((resolve) => (release = resolve));
      return run;
    });
    const together = [read(), read(), read()];
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(runs).toBe(1);
    // The first run has started: a call now must not take its (possibly older) answer.
    const later = read();
    release();
    expect(await Promise.all(together)).toEqual([1, 1, 1]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(runs).toBe(2);
    release();
    expect(await later).toBe(2);
  });

  it('passes a failure to the calls that shared the run, and runs anew after it', async () => {
    let fail = true;
    const read = sharedNextCall(async () => {
      if (fail) throw new Error('broker gone');
      return 'ends';
    });
    await expect(Promise.all([read(), read()])).rejects.toThrow('broker gone');
    fail = false;
    expect(await read()).toBe('ends');
  });
});
