import { describe, expect, it } from 'vitest';
import { book, refill, SendPacer } from './send-pace.ts';

describe('the senders’ token bucket', () => {
  it('starts with one second’s worth and refills at the rate, never above it', () => {
    expect(refill(undefined, 0, 100)).toEqual({ tokens: 100, at: 0 });
    expect(refill({ tokens: 0, at: 0 }, 500, 100)).toEqual({ tokens: 50, at: 500 });
    expect(refill({ tokens: 90, at: 0 }, 10_000, 100)).toEqual({ tokens: 100, at: 10_000 });
  });

  it('lets a backlog leave at the rate, not at once', () => {
    // A sender 10 s behind finds 20 batches of 100 at a rate of 200/s: one second's worth leaves at once, the rest at 200/s.
    let bucket;
    const departures: number[] = [];
    let now = 0;
    for (let batch = 0; batch < 20; batch += 1) {
      const booked = book(bucket, now, 100, 200);
      bucket = booked.bucket;
      now += booked.waitMs;
      departures.push(now);
    }
    expect(departures.slice(0, 2)).toEqual([0, 0]);
    expect(departures.at(-1)).toBe(9_000);
    // Over any second after the first, at most 200 pushes (2 batches) leave.
    for (let index = 2; index + 2 < departures.length; index += 1) expect(departures[index + 2]! - departures[index]!).toBeGreaterThanOrEqual(1_000);
  });

  it('makes a batch larger than the bucket wait for what it lacks', () => {
    expect(book(undefined, 0, 500, 100).waitMs).toBe(4_000);
    expect(book({ tokens: -50, at: 0 }, 0, 10, 100).waitMs).toBe(600);
  });

  it('keeps a bucket per notification, and forgets the least recently used', () => {
    const pacer = new SendPacer(2);
    expect(pacer.book('a', 0, 100, 100)).toBe(0);
    expect(pacer.book('a', 0, 100, 100)).toBe(1_000);
    expect(pacer.book('b', 0, 100, 100)).toBe(0);
    pacer.book('c', 0, 1, 100);
    // 'a' was dropped: it starts full again.
    expect(pacer.book('a', 0, 100, 100)).toBe(0);
  });
});
