import { describe, expect, it } from 'vitest';
import { mergeOverride } from './merge-override.ts';

describe('mergeOverride', () => {
  it('merges objects key by key and replaces everything else, changing neither input', () => {
    const built = { a: { b: 1, c: 2 }, list: [1], keep: 'x' };
    const override = { a: { c: 3, d: 4 }, list: [2, 3], keep: null };
    expect(mergeOverride(built, override)).toEqual({ a: { b: 1, c: 3, d: 4 }, list: [2, 3], keep: null });
    expect(built).toEqual({ a: { b: 1, c: 2 }, list: [1], keep: 'x' });
  });

  it('returns what was built when there is no override, or one that is not an object', () => {
    const built = { a: 1 };
    expect(mergeOverride(built, undefined)).toBe(built);
    expect(mergeOverride(built, null as never)).toBe(built);
    expect(mergeOverride(built, 'x' as never)).toBe(built);
    expect(mergeOverride(built, [1] as never)).toBe(built);
  });
});
