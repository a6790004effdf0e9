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

  it('maps every push option to its firebase-admin field (renamed to the v1 wire name by firebase-admin)', () => {
    const message = buildFcmMessage({
      ...base,
      data: { order: '42' },
      badge: 3,
      sound: 'chime',
      ttl: 3600,
      priority: 'high',
      collapse_id: 'score',
      image: 'https://cdn.example.com/a.png',
      category: 'OPEN_SALE',
      thread_id: 'deals',
    });
    expect(message).toEqual({
      notification: { title: 'Sale', body: 'Ends tonight', imageUrl: 'https://cdn.example.com/a.png' },
      data: { order: '42', notification_id: base.notification_id, project_id: 'proj-1' },
      android: { priority: 'high', ttl: 3_600_000, collapseKey: 'score', notification: { tag: 'deals', sound: 'chime', notificationCount: 3, clickAction: 'OPEN_SALE' } },
    });
  });

  it("never lets custom data replace Herald's ids", () => {
    expect(buildFcmMessage({ ...base, data: { notification_id: 'forged' } }).data.notification_id).toBe(base.notification_id);
  });

  it('sends a silent push as data only', () => {
    const message = buildFcmMessage({ ...base, title: '', body: '', content_available: true, sound: 'x' });
    expect(message).not.toHaveProperty('notification');
    expect(message.android).toBeUndefined();
  });

  it('merges the raw fcm object last', () => {
    const message = buildFcmMessage({ ...base, group: 'g', fcm: { android: { notification: { channelId: 'sales' } }, fcmOptions: { analyticsLabel: 'x' } } });
    expect(message.android).toEqual({ notification: { tag: 'g', channelId: 'sales' } });
    expect(message.fcmOptions).toEqual({ analyticsLabel: 'x' });
  });

  it('has no target: the client adds the token per device', () => {
    expect(buildFcmMessage(base)).not.toHaveProperty('token');
    expect(fcmPayloadBytes(buildFcmMessage(base))).toBe(Buffer.byteLength(JSON.stringify(buildFcmMessage(base))));
  });
});
