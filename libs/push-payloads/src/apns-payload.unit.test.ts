import { describe, expect, it } from 'vitest';
import { apnsPayloadBytes, buildApnsPayload, buildApnsRequest } from './apns-payload.ts';

const base = { notification_id: '0190b6a0-0000-7000-8000-000000000001', project_id: 'proj-1', title: 'Sale', body: 'Ends tonight' };
const NOW = 1_700_000_000_000;

describe('buildApnsPayload', () => {
  it('puts title and body in aps.alert and the ids beside aps', () => {
    expect(buildApnsPayload(base)).toEqual({
      aps: { alert: { title: 'Sale', body: 'Ends tonight' } },
      notification_id: base.notification_id,
      project_id: 'proj-1',
    });
  });

  it('maps group to aps.thread-id and keeps link_to as a custom key', () => {
    const payload = buildApnsPayload({ ...base, group: 'promos', link_to: 'shop://sale' });
    expect(payload.aps['thread-id']).toBe('promos');
    expect(payload.link_to).toBe('shop://sale');
  });

  it('leaves absent optional fields out rather than sending them empty', () => {
    const json = JSON.stringify(buildApnsPayload({ ...base, group: undefined, link_to: undefined }));
    expect(json).not.toContain('thread-id');
    expect(json).not.toContain('link_to');
  });

  it('maps every push option to its aps key or custom key', () => {
    const payload = buildApnsPayload({
      ...base,
      data: { order: '42' },
      badge: 3,
      sound: 'chime.caf',
      category: 'SALE',
      thread_id: 'deals',
      group: 'ignored-when-thread-id-is-set',
      mutable_content: true,
      content_available: true,
      image: 'https://cdn.example.com/a.png',
    });
    expect(payload).toEqual({
      order: '42',
      aps: { alert: { title: 'Sale', body: 'Ends tonight' }, badge: 3, sound: 'chime.caf', 'thread-id': 'deals', category: 'SALE', 'content-available': 1, 'mutable-content': 1 },
      notification_id: base.notification_id,
      project_id: 'proj-1',
      image: 'https://cdn.example.com/a.png',
    });
  });

  it('merges the raw apns object last: objects key by key, other values replace', () => {
    const payload = buildApnsPayload({ ...base, badge: 1, apns: { aps: { badge: 9, 'interruption-level': 'time-sensitive' }, extra: [1, 2] } });
    expect(payload.aps).toEqual({ alert: { title: 'Sale', body: 'Ends tonight' }, badge: 9, 'interruption-level': 'time-sensitive' });
    expect(payload.extra).toEqual([1, 2]);
  });

  it('has no alert for a silent push (content_available, no title or body)', () => {
    expect(buildApnsPayload({ ...base, title: '', body: '', content_available: true }).aps).toEqual({ 'content-available': 1 });
  });
});

describe('buildApnsRequest', () => {
  it('is an immediate alert push without a collapse id or expiry unless asked', () => {
    const request = buildApnsRequest(base, NOW);
    expect(request).toMatchObject({ pushType: 'alert', priority: 10 });
    expect(request).not.toHaveProperty('collapseId');
    expect(request).not.toHaveProperty('expiry');
  });

  it('maps collapse_id, ttl and priority to their headers', () => {
    expect(buildApnsRequest({ ...base, collapse_id: 'score', ttl: 3600, priority: 'normal' }, NOW)).toMatchObject({ collapseId: 'score', expiry: 1_700_003_600, priority: 5 });
    // ttl 0: now or never (apns-expiration 0).
    expect(buildApnsRequest({ ...base, ttl: 0 }, NOW).expiry).toBe(0);
    expect(buildApnsRequest({ ...base, priority: 'high' }, NOW).priority).toBe(10);
  });

  it('sends a silent push as background at priority 5, as Apple requires', () => {
    expect(buildApnsRequest({ ...base, title: '', body: '', content_available: true, priority: 'high' }, NOW)).toMatchObject({ pushType: 'background', priority: 5 });
  });
});

describe('apnsPayloadBytes', () => {
  it('counts UTF-8 bytes, not characters', () => {
    const ascii = apnsPayloadBytes(buildApnsPayload({ ...base, body: 'aa' }));
    expect(apnsPayloadBytes(buildApnsPayload({ ...base, body: 'éé' }))).toBe(ascii + 2);
  });
});
