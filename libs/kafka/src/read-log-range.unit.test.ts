import { describe, expect, it } from 'vitest';
import { rangeSpan, readLogRanges } from './read-log-range.ts';

describe('readLogRanges bounds', () => {
  const ranges = [
    { topic: 'herald.device-events', partition: 0, from: 10, to: 110 },
    { topic: 'herald.fanout-tasks', partition: 0, from: 5, to: 5 },
    { topic: 'herald.notification-events', partition: 2, from: 0, to: 50 },
  ];

  it('costs the span of its ranges (empty ones cost nothing)', () => {
    expect(rangeSpan(ranges)).toBe(150);
  });

  it('refuses a span over the limit before reading anything, naming the ranges', async () => {
    // No Kafka at all: the refusal comes before any connection.
    await expect(readLogRanges({} as never, ranges, { keep: () => true, maxRecords: 149, timeoutMs: 1000, purpose: 'test' })).rejects.toMatchObject({
      status: 422,
      details: ['reading 150 log records (herald.device-events[0] 10..110, herald.notification-events[2] 0..50) is over the limit of 149'],
    });
  });

  it('reads nothing for empty ranges', async () => {
    expect(await readLogRanges({} as never, [{ topic: 't', partition: 0, from: 3, to: 3 }], { keep: () => true, maxRecords: 0, timeoutMs: 1000, purpose: 'test' })).toEqual([]);
  });
});
