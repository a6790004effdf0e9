import { describe, expect, it } from 'vitest';
import { gapsToRead, LAG_READ_SPAN, LAG_READ_TOTAL } from './group-lag.ts';

describe('gapsToRead', () => {
  it('reads each partition once, covering every group’s gap on it', () => {
    const gaps = [
      { row: 0, topic: 't', partition: 0, from: 5, to: 9 },
      { row: 1, topic: 't', partition: 0, from: 7, to: 9 },
      { row: 1, topic: 't', partition: 1, from: 0, to: 2 },
    ];
    const { read, unread } = gapsToRead(gaps);
    expect(unread.size).toBe(0);
    expect(read.sort((a, b) => a.partition - b.partition)).toEqual([
      { topic: 't', partition: 0, from: 5, to: 9 },
      { topic: 't', partition: 1, from: 0, to: 2 },
    ]);
  });
  it('leaves a gap over the span, or past the total, unread', () => {
    const long = { row: 0, topic: 't', partition: 0, from: 0, to: LAG_READ_SPAN + 1 };
    const many = Array.from({ length: Math.ceil(LAG_READ_TOTAL / LAG_READ_SPAN) + 1 }, (_, i) => ({ row: 1, topic: 'u', partition: i, from: 0, to: LAG_READ_SPAN }));
    const { read, unread } = gapsToRead([long, ...many]);
    expect(unread.has(long)).toBe(true);
    expect(unread.size).toBe(2);
    expect(read.reduce((sum, range) => sum + range.to - range.from, 0)).toBeLessThanOrEqual(LAG_READ_TOTAL);
  });
});
