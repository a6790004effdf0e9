import { describe, expect, it } from 'vitest';
import { partitionLag } from './offsets.ts';

describe('partitionLag', () => {
  it('counts from the committed offset, or from the start when nothing is committed', () => {
    expect(partitionLag({ partition: 0, low: 0, high: 10 }, 4)).toBe(6);
    expect(partitionLag({ partition: 0, low: 0, high: 10 }, -1)).toBe(10);
    expect(partitionLag({ partition: 0, low: 5, high: 10 }, 2)).toBe(5);
    expect(partitionLag({ partition: 0, low: 0, high: 10 }, 10)).toBe(0);
  });
});
