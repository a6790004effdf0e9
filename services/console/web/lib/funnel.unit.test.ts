import { describe, expect, it } from 'vitest';
import { progress, settled } from './funnel.ts';

describe('the funnel', () => {
  const counts = { targeted: 10, sent: 4, delivered: 3, failed: 1, invalid: 0, cancelled: 0, opened: 0 };

  it('counts expired and capped devices as settled, deferred ones not yet', () => {
    expect(settled(counts)).toBe(4);
    expect(settled({ ...counts, expired: 2, capped: 3, deferred: 1 })).toBe(9);
    expect(progress({ ...counts, expired: 2, capped: 3, deferred: 1 })).toBe(0.9);
    expect(progress({ ...counts, expired: 2, capped: 3, deferred: 0, delivered: 4 })).toBe(1);
  });
});
