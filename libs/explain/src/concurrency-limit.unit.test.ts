import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from './concurrency-limit.ts';

describe('ConcurrencyLimit', () => {
  it('refuses a second run of one key and a run past the total, and frees the slot when a run ends, even by throwing', async () => {
    const limit = new ConcurrencyLimit({ perKey: 1, total: 2 });
    let release!: () => void;
    const held = limit.run('p1', 'explain', () => new Promise<string>((resolve) => (release = () => resolve('done'))));
    await expect(limit.run('p1', 'explain', async () => 'x')).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429, message: 'explain: 1 already running for this project; try again when it is done' });
    let releaseSecond!: () => void;
    const second = limit.run('p2', 'explain', () => new Promise<void>((resolve) => (releaseSecond = resolve)));
    await expect(limit.run('p3', 'explain', async () => 'x')).rejects.toMatchObject({ code: 'RATE_LIMITED', message: 'explain: 2 already running; try again in a moment' });
    release();
    releaseSecond();
    expect(await held).toBe('done');
    await second;
    await expect(limit.run('p1', 'explain', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limit.run('p1', 'explain', async () => 'again')).toBe('again');
  });
});
