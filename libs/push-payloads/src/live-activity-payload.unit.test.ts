import { describe, expect, it } from 'vitest';
import { buildLiveActivityPayload, buildLiveActivityRequest, liveActivityTopic, nextLiveActivityTimestamp } from './live-activity-payload.ts';

const T = 1_700_000_000;

describe('nextLiveActivityTimestamp', () => {
  it('is now (seconds) for an activity never pushed, and when the clock has moved on', () => {
    expect(nextLiveActivityTimestamp(undefined, T * 1000 + 999)).toBe(T);
    expect(nextLiveActivityTimestamp(T - 5, T * 1000)).toBe(T);
  });

  it('steps one past the last within the same second or after a clock step back', () => {
    expect(nextLiveActivityTimestamp(T, T * 1000 + 500)).toBe(T + 1);
    expect(nextLiveActivityTimestamp(T + 10, T * 1000)).toBe(T + 11);
  });

  it('is strictly increasing over a burst of updates', () => {
    let last: number | undefined;
    const seen: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      last = nextLiveActivityTimestamp(last, T * 1000 + i * 10);
      seen.push(last);
    }
    expect(seen.every((value, i) => i === 0 || value > (seen[i - 1] ?? 0))).toBe(true);
  });
});

describe('buildLiveActivityPayload', () => {
  it('puts a start’s attributes, type and content state in aps', () => {
    expect(
      buildLiveActivityPayload({
        event: 'start',
        timestamp: T,
        attributes_type: 'DeliveryAttributes',
        attributes: { order: '42' },
        content_state: { eta: 12 },
        alert: { title: 'On its way', body: 'ETA 12 min' },
        relevance_score: 50,
      }),
    ).toEqual({
      aps: {
        timestamp: T,
        event: 'start',
        'attributes-type': 'DeliveryAttributes',
        attributes: { order: '42' },
        'content-state': { eta: 12 },
        alert: { title: 'On its way', body: 'ETA 12 min' },
        'relevance-score': 50,
      },
    });
  });

  it('leaves attributes out of an update and absent options out entirely', () => {
    const payload = buildLiveActivityPayload({ event: 'update', timestamp: T, content_state: { eta: 5 }, attributes_type: 'X', attributes: { a: 1 } });
    expect(payload).toEqual({ aps: { timestamp: T, event: 'update', 'content-state': { eta: 5 } } });
  });

  it('carries the dismissal date on end only, the stale date on any event', () => {
    expect(buildLiveActivityPayload({ event: 'end', timestamp: T, content_state: {}, dismissal_date: T + 60, stale_date: T + 30 }).aps).toMatchObject({
      'dismissal-date': T + 60,
      'stale-date': T + 30,
    });
    expect(buildLiveActivityPayload({ event: 'update', timestamp: T, dismissal_date: T + 60 }).aps).not.toHaveProperty('dismissal-date');
  });
});

describe('buildLiveActivityRequest', () => {
  it('uses the liveactivity push type and topic suffix, priority 10 unless asked for 5', () => {
    expect(liveActivityTopic('com.example.app')).toBe('com.example.app.push-type.liveactivity');
    const request = buildLiveActivityRequest({ event: 'update', timestamp: T, content_state: {} });
    expect(request).toMatchObject({ pushType: 'liveactivity', priority: 10 });
    expect(buildLiveActivityRequest({ event: 'update', timestamp: T, content_state: {}, priority: 5 }).priority).toBe(5);
  });
});
