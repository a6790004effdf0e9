import { describe, expect, it } from 'vitest';
import { apnsPayloadBytes, buildApnsPayload, buildApnsRequest } from './apns-payload.ts';

const base = { notification_id: '0190b6a0-0000-7000-8000-000000000001', project_id: 'proj-1', title: 'Sale', body: 'Ends tonight' };

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
});

describe('buildApnsRequest', () => {
  it('is an immediate alert push without a collapse id unless asked', () => {
    const request = buildApnsRequest(base);
    expect(request).toMatchObject({ pushType: 'alert', priority: 10 });
    expect(request).not.toHaveProperty('collapseId');
    expect(buildApnsRequest(base, { collapseId: 'score' }).collapseId).toBe('score');
  });
});

describe('apnsPayloadBytes', () => {
  it('counts UTF-8 bytes, not characters', () => {
    const ascii = apnsPayloadBytes(buildApnsPayload({ ...base, body: 'aa' }));
    expect(apnsPayloadBytes(buildApnsPayload({ ...base, body: 'éé' }))).toBe(ascii + 2);
  });
});
