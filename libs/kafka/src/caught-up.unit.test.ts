import { describe, expect, it } from 'vitest';
import { allAtEnd, atEnd, behind } from './caught-up.ts';

describe('atEnd', () => {
  it('is the position (past markers) reaching the end, not the last record reaching end - 1', () => {
    // Three records in three transactions: records at 0, 2, 4; markers at 1, 3, 5; end 6.
    const end = { partition: 0, low: 0, high: 6 };
    expect(atEnd(5, end)).toBe(false); // handed record 4: its marker is still ahead
    expect(atEnd(6, end)).toBe(true); // the fetch moved past the marker
    expect(atEnd(7, end)).toBe(true);
  });
  it('holds from any position for a partition with nothing stored', () => {
    expect(atEnd(0, { partition: 0, low: 0, high: 0 })).toBe(true);
    expect(atEnd(3, { partition: 0, low: 9, high: 9 })).toBe(true);
  });
});

describe('allAtEnd and behind', () => {
  const ends = [
    { partition: 0, low: 0, high: 3 },
    { partition: 1, low: 0, high: 0 },
    { partition: 2, low: 4, high: 4 },
  ];
  it('needs every non-empty partition at its end; an unread partition is at its low', () => {
    expect(allAtEnd(ends, (partition) => (partition === 0 ? 3 : undefined))).toBe(true);
    expect(allAtEnd(ends, (partition) => (partition === 0 ? 2 : undefined))).toBe(false);
    expect(allAtEnd(ends, () => undefined)).toBe(false);
    expect(behind(ends, () => undefined)).toEqual([{ partition: 0, position: 0, end: 3 }]);
    expect(behind(ends, () => 3)).toEqual([]);
  });
});
