import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVapidKey } from '@herald/admin';
import { createFakeTls, startFakeWebPush, type FakeWebPush } from '@herald/fake-providers';
import { buildWebPushPayload, type PushMessage } from '@herald/push-payloads';
import { createWebPushClient, type WebPushClient, type WebPushTarget } from './webpush-client.ts';

/** The client against the fake push service, which checks VAPID and decrypts every message as a browser would. */
let fake: FakeWebPush;
let other: FakeWebPush;
let client: WebPushClient;
const key = generateVapidKey();
const project = { subject: 'mailto:push@example.com', keys: [key] };
const message: PushMessage = { notification_id: '0190b6a0-0000-7000-8000-000000000001', project_id: 'p1', title: 'Sale', body: 'Ends tonight', link_to: 'https://shop.example/sale', data: { order: '42' }, ttl: 600, priority: 'high', collapse_id: 'sale' };

function target(subscription: { endpoint: string; keys: { p256dh: string; auth: string } }, deviceId = 'd1', keyId = key.id): WebPushTarget {
  return { device_id: deviceId, endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, key_id: keyId };
}

beforeAll(async () => {
  const tls = await createFakeTls();
  fake = await startFakeWebPush({ tls });
  other = await startFakeWebPush({ tls });
  client = createWebPushClient({ maxInFlight: 8, timeoutMs: 5000, allowLoopback: true, ca: tls.ca });
});
afterAll(async () => {
  client?.close();
  await Promise.all([fake?.close(), other?.close()]);
});

describe('the Web Push client and the fake push service', () => {
  it('delivers: the browser decrypts the Declarative Web Push JSON; TTL, Urgency and Topic are sent; one VAPID signature per origin and key', async () => {
    fake.reset();
    const subscriptions = [fake.subscribe({ applicationServerKey: key.public_key }), fake.subscribe({ applicationServerKey: key.public_key })];
    const signedBefore = client.vapid.signed;
    const results = await client.send(project, subscriptions.map((subscription, index) => target(subscription, `d${index}`)), message);
    expect(results.map((result) => [result.device_id, result.outcome])).toEqual([['d0', 'delivered'], ['d1', 'delivered']]);
    expect(results[0]!.providerMessageId).toMatch(/\/message\//);
    expect(fake.deliveries).toHaveLength(2);
    for (const delivery of fake.deliveries) {
      expect(JSON.parse(delivery.plaintext)).toEqual(buildWebPushPayload(message));
      expect(delivery.headers).toMatchObject({ ttl: '600', urgency: 'high', topic: 'sale', 'content-encoding': 'aes128gcm' });
      expect(delivery.vapid).toEqual({ key: key.public_key, subject: 'mailto:push@example.com' });
    }
    await client.send(project, [target(subscriptions[0]!)], message);
    expect(client.vapid.signed - signedBefore).toBe(1);
  });

  it("sends each target its own message when it carries one (per-device content), in one call", async () => {
    fake.reset();
    const subscriptions = [fake.subscribe({ applicationServerKey: key.public_key }), fake.subscribe({ applicationServerKey: key.public_key }), fake.subscribe({ applicationServerKey: key.public_key })];
    const hi: PushMessage = { ...message, title: 'Hi Ana', collapse_id: 'ana' };
    const hallo: PushMessage = { ...message, title: 'Hallo Bo' };
    const own = [hi, hallo, hi];
    const results = await client.send(project, subscriptions.map((subscription, index) => ({ ...target(subscription, `d${index}`), message: own[index] })), undefined);
    expect(results.map((result) => result.outcome)).toEqual(['delivered', 'delivered', 'delivered']);
    const byEndpoint = new Map(fake.deliveries.map((delivery) => [delivery.endpoint, delivery]));
    for (const [index, subscription] of subscriptions.entries()) {
      const delivery = byEndpoint.get(subscription.endpoint)!;
      expect(JSON.parse(delivery.plaintext)).toEqual(buildWebPushPayload(own[index]!));
      expect(delivery.headers.topic).toBe(own[index]!.collapse_id);
    }
  });

  it('maps each answer: 410 and 404 gone, 413 too large, 403 for another key, 5xx retryable', async () => {
    fake.reset();
    const expired = fake.subscribe();
    fake.expire(expired.endpoint);
    const unknown = { ...fake.subscribe(), endpoint: `${fake.url}/push/never-issued` };
    fake.setRules([{ prefix: 'big-', status: 413 }, { prefix: 'down-', status: 503 }]);
    const otherKey = generateVapidKey();
    const cases = [
      target(expired, 'gone'),
      target(unknown, 'unknown'),
      target(fake.subscribe({ label: 'big-' }), 'big'),
      target(fake.subscribe({ label: 'down-' }), 'down'),
      target(fake.subscribe({ applicationServerKey: otherKey.public_key }), 'mismatch'),
      target(fake.subscribe(), 'no-key', 'a-key-the-project-never-had'),
    ];
    const results = await client.send(project, cases, message);
    expect(results.map(({ device_id, outcome, reason }) => [device_id, outcome, reason])).toEqual([
      ['gone', 'token-invalid', 'SubscriptionGone'],
      ['unknown', 'token-invalid', 'SubscriptionGone'],
      ['big', 'rejected', 'PayloadTooLarge'],
      ['down', 'retryable', 'ServiceUnavailable'],
      ['mismatch', 'rejected', 'VapidRejected'],
      ['no-key', 'rejected', 'VapidKeyUnknown'],
    ]);
    // The unknown key never reached the push service.
    expect(fake.stats.requests).toBe(5);
    fake.setRules([]);
  });

  it("429 holds back that push service's origin until Retry-After, and no other", async () => {
    fake.reset();
    other.reset();
    fake.setRules([{ prefix: 'busy-', status: 429, retryAfterSeconds: 30, times: 1 }]);
    const busy = fake.subscribe({ label: 'busy-' });
    const [first] = await client.send(project, [target(busy)], message);
    expect(first).toMatchObject({ outcome: 'retryable', reason: 'TooManyRequests', retryAfterMs: 30_000 });
    const held = await client.send(project, [target(fake.subscribe(), 'same-origin'), target(other.subscribe(), 'other-origin')], message);
    expect(held.map(({ device_id, outcome }) => [device_id, outcome])).toEqual([['same-origin', 'retryable'], ['other-origin', 'delivered']]);
    expect(held[0]!.retryAfterMs).toBeGreaterThan(29_000);
    expect(fake.stats.requests).toBe(1);
    fake.setRules([]);
  });

  it('outside local mode, a loopback endpoint is never called', async () => {
    fake.reset();
    const strict = createWebPushClient({ maxInFlight: 1, timeoutMs: 5000, allowLoopback: false });
    try {
      const [result] = await strict.send(project, [target(fake.subscribe())], message);
      expect(result).toMatchObject({ outcome: 'rejected', reason: 'EndpointRefused' });
      expect(fake.stats.requests).toBe(0);
    } finally {
      strict.close();
    }
  });
});
