import { describe, expect, it } from 'vitest';
import { mergedKeyCount } from './device-limits.ts';

describe('mergedKeyCount', () => {
  it('counts kept, added and removed keys', () => {
    expect(mergedKeyCount({ a: '1', b: '2' }, { b: '3', c: '4', a: null })).toBe(2);
    expect(mergedKeyCount({}, { x: null })).toBe(0);
    expect(mergedKeyCount({ a: '1' }, {})).toBe(1);
  });
});
