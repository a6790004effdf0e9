import { describe, expect, it } from 'vitest';
import { retryOnPortClash } from './service-process.ts';

describe('retryOnPortClash', () => {
  it('starts again on EADDRINUSE, and only on it', async () => {
    let calls = 0;
    const clashOnce = () => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('api exited: listen EADDRINUSE: address already in use 127.0.0.1:31739')) : Promise.resolve(calls);
    };
    expect(await retryOnPortClash(clashOnce)).toBe(2);

    let otherCalls = 0;
    const otherFailure = () => {
      otherCalls += 1;
      return Promise.reject(new Error('did not print "ready" within 45000 ms'));
    };
    await expect(retryOnPortClash(otherFailure)).rejects.toThrow('within 45000 ms');
    expect(otherCalls).toBe(1);

    let clashes = 0;
    const alwaysClash = () => {
      clashes += 1;
      return Promise.reject(new Error('EADDRINUSE'));
    };
    await expect(retryOnPortClash(alwaysClash, 3)).rejects.toThrow('EADDRINUSE');
    expect(clashes).toBe(3);
  });
});
