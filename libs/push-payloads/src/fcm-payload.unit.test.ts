import { describe, expect, it } from 'vitest';
import { buildFcmMessage, fcmPayloadBytes } from './fcm-payload.ts';

const base = { notification_id: '0190b6a0-0000-7000-8000-000000000001', project_id: 'proj-1', title: 'Sale', body: 'Ends tonight' };

describe('buildFcmMessage', () => {
  it('sends a notification with the ids as string data', () => {
    expect(buildFcmMessage(base)).toEqual({
      notification: { title: 'Sale', body: 'Ends tonight' },
      data: { notification_id: base.notification_id, project_id: 'proj-1' },
    });
  });

  it('adds link_to to data and maps group to android.notification.tag', () => {
    const message = buildFcmMessage({ ...base, link_to: 'shop://sale', group: 'promos' });
    expect(message.data.link_to).toBe('shop://sale');
    expect(message.android).toEqual({ notification: { tag: 'promos' } });
  });

  it('keeps every data value a string and never sends absent fields', () => {
    const message = buildFcmMessage({ ...base, link_to: undefined, group: undefined });
    expect(Object.values(message.data).every((value) => typeof value === 'string')).toBe(true);
    expect(message.data).not.toHaveProperty('link_to');
    expect(message).not.toHaveProperty('android');
  });

  it('has no target: the client adds the token per device', () => {
    expect(buildFcmMessage(base)).not.toHaveProperty('token');
    expect(fcmPayloadBytes(buildFcmMessage(base))).toBe(Buffer.byteLength(JSON.stringify(buildFcmMessage(base))));
  });
});
