import { describe, expect, it } from 'vitest';
import { apnsPayloadBytes, buildApnsPayload, buildHmsMessage, buildWebPushPayload, hmsPayloadBytes, WEB_PUSH_PLAINTEXT_LIMIT_BYTES, webPushPlaintext } from '@herald/push-payloads';
import { EMPTY_DRAFT, requestOf } from './draft.ts';
import { previewOf } from './preview.ts';

/** The ids previewOf uses: the real length, so the sizes are the providers'. */
const IDS = { notification_id: '00000000-0000-7000-8000-000000000000', project_id: '00000000-0000-7000-8000-000000000000' };

describe('the payload preview', () => {
  it("is what libs/push-payloads builds, with the senders' byte counts", () => {
    const { request } = requestOf({ ...EMPTY_DRAFT, title: 'Été', body: '✓', badge: '1' });
    const preview = previewOf(request);
    expect(preview.apns.payload).toMatchObject({ aps: { alert: { title: 'Été', body: '✓' }, badge: 1 } });
    expect(preview.apns.bytes).toBe(apnsPayloadBytes(buildApnsPayload({ title: 'Été', body: '✓', badge: 1, ...IDS })));
    expect(preview.problems).toEqual([]);
    // Over APNs', FCM's, Web Push's and Push Kit's limits (every provider the send may reach).
    expect(previewOf({ ...request, body: 'x'.repeat(5000) }).problems).toHaveLength(4);
  });

  it('shows the Web Push plaintext the sender encrypts, its bytes against 3,993, and its headers', () => {
    const { request } = requestOf({ ...EMPTY_DRAFT, title: 'Été', body: 'Sale ✓', link_to: 'https://shop.example/sale', ttl: '600', priority: 'high', collapse_id: 'sale-1' });
    const { webpush } = previewOf(request);
    const message = { ...IDS, title: 'Été', body: 'Sale ✓', link_to: 'https://shop.example/sale', ttl: 600, priority: 'high' as const, collapse_id: 'sale-1' };
    expect(webpush.plaintext).toBe(webPushPlaintext(buildWebPushPayload(message)));
    expect(webpush.payload.notification).toMatchObject({ title: 'Été', body: 'Sale ✓', navigate: 'https://shop.example/sale' });
    expect(webpush.bytes).toBe(new TextEncoder().encode(webpush.plaintext).byteLength);
    expect(webpush.limit).toBe(WEB_PUSH_PLAINTEXT_LIMIT_BYTES);
    expect(webpush.headers).toEqual({ TTL: '600', Urgency: 'high', Topic: 'sale-1' });
  });

  it('says a collapse id that is no Topic goes as its digest, as the sender sends it, and TTL defaults to four weeks', () => {
    const { request } = requestOf({ ...EMPTY_DRAFT, title: 'Hi', body: 'there', collapse_id: 'has space' });
    expect(previewOf(request).webpush.headers).toEqual({ TTL: String(28 * 24 * 3600), Topic: '(SHA-256 of the collapse id, 32 base64url characters)' });
  });

  it('names the Web Push limit for a body only Web Push cannot carry', () => {
    const { request } = requestOf({ ...EMPTY_DRAFT, title: 'Hi', body: 'x' });
    const overhead = previewOf(request).webpush.bytes - 1;
    const preview = previewOf({ ...request, body: 'x'.repeat(WEB_PUSH_PLAINTEXT_LIMIT_BYTES - overhead + 1) });
    expect(preview.webpush.bytes).toBe(WEB_PUSH_PLAINTEXT_LIMIT_BYTES + 1);
    expect(preview.apns.bytes).toBeLessThanOrEqual(preview.limit);
    expect(preview.problems).toEqual([expect.stringMatching(/^notification must fit in 3993 bytes as a Web Push plaintext \(it takes 3994;/)]);
  });

  it('shows the Push Kit message the sender builds, with its bytes', () => {
    const { request } = requestOf({ ...EMPTY_DRAFT, title: 'Hi', body: 'there', data: 'order=42', priority: 'normal' });
    const { hms } = previewOf(request);
    const message = buildHmsMessage({ ...IDS, title: 'Hi', body: 'there', data: { order: '42' }, priority: 'normal' });
    expect(hms.message).toEqual(message);
    expect(hms.bytes).toBe(hmsPayloadBytes(message));
    expect(hms.limit).toBe(4096);
  });
});
