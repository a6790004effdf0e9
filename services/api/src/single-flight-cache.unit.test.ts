import { describe, expect, it } from 'vitest';
import { singleFlightCache } from './single-flight-cache.ts';

describe('singleFlightCache', () => {
  it('asks once per ttl however many callers, then again; a failure is not kept', async () => {
    let clock = 0;
    let asked = 0;
    let fail = false;
    const cached = singleFlightCache(async () => {
      asked += 1;
      if (fail) throw new Error('down');
      return asked;
    }, 1000, () => clock);
    expect(await Promise.all([cached(), cached(), cached()])).toEqual([1, 1, 1]);
    clock = 999;
    expect(await cached()).toBe(1);
    clock = 1000;
    fail = true;
    await expect(cached()).rejects.toThrow('down');
    fail = false;
    expect(await cached()).toBe(3);
    expect(asked).toBe(3);
  });
});
