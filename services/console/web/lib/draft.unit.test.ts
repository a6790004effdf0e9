import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, instantOf, problemsByField, requestOf } from './draft.ts';
import { cumulative, progress } from './funnel.ts';

describe('a draft as a send request', () => {
  it('leaves out empty fields and builds every kind of target', () => {
    const { request, problems } = requestOf({
      ...EMPTY_DRAFT,
      title: 'Hi',
      body: 'there',
      topics: ['news'],
      devices: 'token-1\n\n  0199aa55-1c2d-5e3f-8a9b-0123456789ab ',
      externalIds: 'u-1',
      metadata: 'plan = pro\ncountry=fr',
      badge: '2',
      priority: 'high',
      content_available: true,
      apns: '{"aps": {"interruption-level": "time-sensitive"}}',
    });
    expect(problems).toEqual({});
    expect(request).toEqual({
      title: 'Hi',
      body: 'there',
      targets: [{ topic: 'news' }, { token: 'token-1' }, { device_id: '0199aa55-1c2d-5e3f-8a9b-0123456789ab' }, { metadata: { plan: 'pro', country: 'fr' } }, { external_id: 'u-1' }],
      badge: 2,
      priority: 'high',
      content_available: true,
      apns: { aps: { 'interruption-level': 'time-sensitive' } },
    });
  });

  it('names the fields whose text it cannot read', () => {
    const { problems } = requestOf({ ...EMPTY_DRAFT, data: 'novalue', fcm: '[1]', schedule: 'at' });
    expect(problems).toEqual({ data: ['"novalue" is not key=value'], fcm: ['must be a JSON object'], sendAt: ['pick a date and time'] });
  });

  it('turns a time in the browser zone into RFC 3339 with its offset', () => {
    expect(instantOf('2026-12-01T09:30', -60)).toBe('2026-12-01T09:30:00+01:00');
    expect(instantOf('2026-12-01T09:30', 300)).toBe('2026-12-01T09:30:00-05:00');
    expect(requestOf({ ...EMPTY_DRAFT, schedule: 'local', sendAtLocal: '2026-12-01T09:00' }).request.send_at_local).toBe('2026-12-01T09:00');
  });

  it("puts the API's 422 messages beside the fields they name", () => {
    expect(problemsByField(['notification.image must match pattern "^https://"', 'notification.send_at is in the past', 'notification.targets must have at least 1 item', 'body must be valid JSON'])).toEqual({
      image: ['notification.image must match pattern "^https://"'],
      sendAt: ['notification.send_at is in the past'],
      targets: ['notification.targets must have at least 1 item'],
      form: ['body must be valid JSON'],
    });
  });
});

describe('numbers as typed', () => {
  it('names a badge or ttl that is not a number on its field, never sends null', () => {
    const { request, problems } = requestOf({ ...EMPTY_DRAFT, title: 't', body: 'b', topics: ['news'], badge: 'three', ttl: '1e400' });
    expect(problems).toEqual({ badge: ['"three" is not a number: a whole number, 0 or more'], ttl: ['"1e400" is not a number: a whole number, 0 or more'] });
    expect(JSON.stringify(request)).not.toContain('null');
    expect(requestOf({ ...EMPTY_DRAFT, badge: '1.5' }).request.badge).toBe(1.5);
  });
});

describe('funnel arithmetic', () => {
  it('is the share of targeted devices with an outcome', () => {
    expect(progress({ targeted: 4, sent: 3, delivered: 2, failed: 0, invalid: 1, cancelled: 1, opened: 0 })).toBe(1);
    expect(progress({ targeted: 0, sent: 0, delivered: 0, failed: 0, invalid: 0, cancelled: 0, opened: 0 })).toBe(0);
  });

  it('adds buckets up to running totals, from the dispatch to the end', () => {
    const zero = { delivered: 0, failed: 0, invalid: 0, cancelled: 0, opened: 0 };
    const points = cumulative(
      [
        { ...zero, at: '2026-05-01T10:01:00.000Z', opened: 1 },
        { ...zero, at: '2026-05-01T10:00:00.000Z', delivered: 3, invalid: 1 },
      ],
      Date.parse('2026-05-01T09:59:30Z'),
      Date.parse('2026-05-01T11:00:00Z'),
    );
    expect(points.map((point) => [new Date(point.at).toISOString(), point.delivered, point.notDelivered, point.opened])).toEqual([
      ['2026-05-01T09:59:30.000Z', 0, 0, 0],
      ['2026-05-01T10:00:00.000Z', 3, 1, 0],
      ['2026-05-01T10:01:00.000Z', 3, 1, 1],
      ['2026-05-01T11:00:00.000Z', 3, 1, 1],
    ]);
    expect(cumulative([])).toEqual([]);
    // A bucket that starts before the dispatch is drawn at the dispatch.
    const late = cumulative([{ ...zero, at: '2026-05-01T10:00:00.000Z', delivered: 2 }], Date.parse('2026-05-01T10:00:40Z'));
    expect(late.map((point) => [new Date(point.at).toISOString(), point.delivered])).toEqual([
      ['2026-05-01T10:00:40.000Z', 0],
      ['2026-05-01T10:00:40.000Z', 2],
    ]);
  });
});
