import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff.ts';

describe('backoffDelay', () => {
  it('jitters the first wait between half the minimum and the minimum', () => {
    expect(backoffDelay(1, DEFAULT_BACKOFF, 0)).toBe(50);
    expect(backoffDelay(1, DEFAULT_BACKOFF, 0.5)).toBe(75);
    expect(backoffDelay(1, DEFAULT_BACKOFF, 1)).toBe(100);
  });

  it('doubles the ceiling per attempt up to the maximum, even for huge attempt counts', () => {
    expect(backoffDelay(2, DEFAULT_BACKOFF, 1)).toBe(200);
    expect(backoffDelay(3, DEFAULT_BACKOFF, 1)).toBe(400);
    expect(backoffDelay(10, DEFAULT_BACKOFF, 1)).toBe(5_000);
    expect(backoffDelay(1_000, DEFAULT_BACKOFF, 1)).toBe(5_000);
    expect(backoffDelay(1_000, DEFAULT_BACKOFF, 0)).toBe(50);
  });

  it('keeps a given floor, and never waits past the ceiling for it', () => {
    const policy = { minMs: 500, maxMs: 60_000, floorMs: 500 };
    expect(backoffDelay(1, policy, 0)).toBe(500);
    expect(backoffDelay(1, policy, 1)).toBe(500);
    expect(backoffDelay(4, policy, 0)).toBe(500);
    expect(backoffDelay(4, policy, 1)).toBe(4_000);
    expect(backoffDelay(3, { minMs: 100, maxMs: 2_000, floorMs: 1_000 }, 0)).toBe(400);
  });

  it('reads attempt 0 as the first', () => {
    expect(backoffDelay(0, DEFAULT_BACKOFF, 1)).toBe(100);
  });
});
