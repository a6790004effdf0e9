import { describe, expect, it } from 'vitest';
import { fitsProviderLimits } from './provider-limits.ts';
import { buildWebPushPayload, WEB_PUSH_DEFAULT_TTL_SECONDS, WEB_PUSH_PLAINTEXT_LIMIT_BYTES, webPushHeaders, webPushPayloadBytes, webPushTopic } from './webpush-payload.ts';

const base = { notification_id: '0190b6a0-0000-7000-8000-000000000001', project_id: 'proj-1', title: 'Sale', body: 'Ends tonight' };

describe('buildWebPushPayload', () => {
  it('builds the Declarative Web Push JSON with the ids and the data for a service worker', () => {
    expect(buildWebPushPayload({ ...base, link_to: 'https://shop.example/sale', data: { order: '42' } })).toEqual({
      web_push: 8030,
      notification: { title: 'Sale', body: 'Ends tonight', navigate: 'https://shop.example/sale' },
      data: { order: '42', notification_id: base.notification_id, project_id: 'proj-1', link_to: 'https://shop.example/sale' },
    });
  });

  it('maps image, group and badge, and never sends absent fields', () => {
    const payload = buildWebPushPayload({ ...base, image: 'https://cdn.example/a.png', group: 'deals', badge: 3 });
    expect(payload.notification).toEqual({ title: 'Sale', body: 'Ends tonight', image: 'https://cdn.example/a.png', tag: 'deals', app_badge: 3 });
    expect(buildWebPushPayload(base).notification).not.toHaveProperty('navigate');
  });

  it('sends a silent push as data alone', () => {
    const payload = buildWebPushPayload({ ...base, title: '', body: '', content_available: true });
    expect(payload).not.toHaveProperty('notification');
    expect(payload.data.notification_id).toBe(base.notification_id);
  });

  it('merges the raw webpush object last: lang, dir, actions', () => {
    const actions = [{ action: 'open', title: 'Open', navigate: 'https://shop.example/o' }];
    const payload = buildWebPushPayload({ ...base, webpush: { notification: { lang: 'fr', dir: 'ltr', actions } } });
    expect(payload.notification).toEqual({ title: 'Sale', body: 'Ends tonight', lang: 'fr', dir: 'ltr', actions });
  });

  it('Herald ids win over custom data of the same name', () => {
    const payload = buildWebPushPayload({ ...base, data: { notification_id: 'forged' } });
    expect(payload.data.notification_id).toBe(base.notification_id);
  });
});

describe('the 3,993-byte plaintext limit', () => {
  it('is 4096 minus the aes128gcm header (86), tag (16) and delimiter (1)', () => {
    expect(WEB_PUSH_PLAINTEXT_LIMIT_BYTES).toBe(4096 - 86 - 16 - 1);
  });

  it('refuses a plaintext one byte over, in UTF-8 bytes', () => {
    const overhead = webPushPayloadBytes(buildWebPushPayload({ ...base, body: '' }));
    const fits = { ...base, body: 'x'.repeat(WEB_PUSH_PLAINTEXT_LIMIT_BYTES - overhead) };
    expect(webPushPayloadBytes(buildWebPushPayload(fits))).toBe(WEB_PUSH_PLAINTEXT_LIMIT_BYTES);
    expect(fitsProviderLimits(fits, ['webpush'])).toEqual([]);
    const over = { ...fits, body: `${fits.body}x` };
    expect(fitsProviderLimits(over, ['webpush'])).toEqual([expect.stringContaining('3993 bytes as a Web Push plaintext (it takes 3994')]);
    // Checked by default, with APNs, FCM and Push Kit (the API's 422).
    expect(fitsProviderLimits(over)).toHaveLength(1);
    const twoByteChars = { ...base, body: 'é'.repeat(Math.ceil((WEB_PUSH_PLAINTEXT_LIMIT_BYTES - overhead + 1) / 2)) };
    expect(fitsProviderLimits(twoByteChars, ['webpush'])).toHaveLength(1);
  });
});

describe('webPushHeaders', () => {
  it('defaults TTL to four weeks and sends neither Urgency nor Topic unasked', () => {
    expect(webPushHeaders({})).toEqual({ TTL: String(WEB_PUSH_DEFAULT_TTL_SECONDS) });
    expect(WEB_PUSH_DEFAULT_TTL_SECONDS).toBe(2_419_200);
  });

  it('maps ttl (0 stays 0: now or never), priority and collapse_id', () => {
    expect(webPushHeaders({ ttl: 0, priority: 'high', collapse_id: 'score-1' })).toEqual({ TTL: '0', Urgency: 'high', Topic: 'score-1' });
    expect(webPushHeaders({ priority: 'normal' }).Urgency).toBe('normal');
  });

  it('leaves out a collapse_id that is no valid Topic, unless topicOf makes one', () => {
    expect(webPushTopic('a'.repeat(32))).toBe('a'.repeat(32));
    expect(webPushTopic('a'.repeat(33))).toBeUndefined();
    expect(webPushTopic('has space')).toBeUndefined();
    expect(webPushHeaders({ collapse_id: 'has space' })).not.toHaveProperty('Topic');
    expect(webPushHeaders({ collapse_id: 'has space' }, () => 'hashed').Topic).toBe('hashed');
  });
});
