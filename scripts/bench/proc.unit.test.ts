import { describe, expect, it } from 'vitest';
import { withDescendants } from './proc.ts';

describe('withDescendants', () => {
  it('adds children and grandchildren (a postmaster and its forked backends), nothing else', () => {
    const parents = new Map([
      [10, 1],
      [11, 10],
      [12, 11],
      [20, 1],
      [21, 20],
    ]);
    expect(withDescendants([10], parents).sort()).toEqual([10, 11, 12]);
    expect(withDescendants([], parents)).toEqual([]);
  });
});
