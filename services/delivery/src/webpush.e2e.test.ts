import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVapidKey } from '@herald/admin';
import type { FakeBrowserSubscription, FakeWebPush } from '@herald/fake-providers';
import { apnsToken, deliveryDeadLetters, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * Web Push end to end (docs/guides/web-push.md): browsers registered with
 * the fake push services' subscriptions, sends through the API, the fan-out
 * and the webpush senders over the real Kafka and store; the fakes check
 * each message's VAPID header and decrypt it as the browser would.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
let publicKey: string;
const fakes = () => harness.fakes!;

interface Receipt {
  device_id: string;
  provider: string;
  outcome: string;
  reason: string | null;
  attempts: number | null;
}

beforeAll(async () => {
  harness = await startApiHarness('webpush-send', { delivery: true, apiEnv: { WEBPUSH_LOCAL: 'on' } });
  project = await harness.createProject('webpush-send');
  await fakes().configure(project.id);
  const keys = await fakes().vapid.generate(project.id, 'mailto:push@example.com');
  publicKey = keys.keys[0]!.public_key;
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

async function register(subscription: FakeBrowserSubscription, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'web', subscription, ...extra } });
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  return (response.body!.data as { id: string }).id;
}

/** A browser of `fake` subscribed with the project's key (`label` names its id, which the fake's rules match). */
async function browser(fake: FakeWebPush, label: string, extra: Record<string, unknown> = {}): Promise<{ id: string; subscription: FakeBrowserSubscription }> {
  const subscription = fake.subscribe({ label, applicationServerKey: publicKey });
  return { id: await register(subscription, extra), subscription };
}

async function send(targets: unknown[], notification: Record<string, unknown> = {}): Promise<string> {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Hello', body: 'From Herald', targets, ...notification } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body!.data as { id: string }).id;
}

async function receipts(id: string): Promise<Receipt[]> {
  const response = await harness.request('GET', `/api/v1/notifications/${id}/receipts?limit=100`, { key: project.api_key });
  return (response.body?.data as Receipt[] | undefined) ?? [];
}

/** The receipts once every one of `devices` has a final outcome. */
function settled(id: string, devices: readonly string[]): Promise<Map<string, Receipt>> {
  return waitFor(`receipts of ${devices.length} devices for ${id}`, async () => {
    const rows = new Map((await receipts(id)).map((row) => [row.device_id, row]));
    return devices.every((device) => rows.has(device)) ? rows : undefined;
  }, 90_000);
}

const deliveredTo = (fake: FakeWebPush, subscription: FakeBrowserSubscription, notificationId: string) =>
  fake.deliveries.filter((delivery) => delivery.endpoint === subscription.endpoint && (JSON.parse(delivery.plaintext) as { data?: { notification_id?: string } }).data?.notification_id === notificationId);

async function device(id: string): Promise<{ status: string; token: string; deactivation: { reason: string; provider?: string } | null }> {
  return (await harness.request('GET', `/api/v1/devices/${id}`, { key: project.api_key })).body!.data as never;
}

describe('Web Push sending', () => {
  it('delivers an encrypted Declarative Web Push message the browser decrypts, with a webpush receipt and counts', async () => {
    const { id: deviceId, subscription } = await browser(fakes().webpush, 'plain-');
    const id = await send([{ device_id: deviceId }], { link_to: 'https://shop.example/sale', data: { order: '42' }, ttl: 600, priority: 'normal', collapse_id: 'sale' });
    const rows = await settled(id, [deviceId]);
    expect(rows.get(deviceId)).toMatchObject({ provider: 'webpush', outcome: 'delivered' });
    const [delivery] = deliveredTo(fakes().webpush, subscription, id);
    expect(JSON.parse(delivery!.plaintext)).toMatchObject({
      web_push: 8030,
      notification: { title: 'Hello', body: 'From Herald', navigate: 'https://shop.example/sale' },
      data: { order: '42', notification_id: id, project_id: project.id },
    });
    expect(delivery!.headers).toMatchObject({ ttl: '600', urgency: 'normal', topic: 'sale', 'content-encoding': 'aes128gcm' });
    expect(delivery!.vapid).toEqual({ key: publicKey, subject: 'mailto:push@example.com' });
    const shown = await waitFor('webpush counts', async () => {
      const data = (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body!.data as { counts_by_provider?: { webpush?: { targeted: number; delivered: number } } };
      return data.counts_by_provider?.webpush?.delivered === 1 ? data : undefined;
    });
    expect(shown.counts_by_provider!.webpush!.targeted).toBe(1);
  });

  it('sends each browser its own language of a localised send (a batch with per-device content)', async () => {
    const french = await browser(fakes().webpush, 'loc-fr-', { locale: 'fr-BE' });
    const german = await browser(fakes().webpush, 'loc-de-', { locale: 'de' });
    const other = await browser(fakes().webpush, 'loc-es-', { locale: 'es' });
    const id = await send([{ device_id: french.id }, { device_id: german.id }, { device_id: other.id }], { title: 'Sale', body: 'Today only', localizations: { fr: { title: 'Soldes' }, de: { title: 'Ausverkauf', body: 'Nur heute' } } });
    const rows = await settled(id, [french.id, german.id, other.id]);
    for (const deviceId of [french.id, german.id, other.id]) expect(rows.get(deviceId)).toMatchObject({ provider: 'webpush', outcome: 'delivered' });
    const shown = (subscription: FakeBrowserSubscription) => deliveredTo(fakes().webpush, subscription, id).map((delivery) => (JSON.parse(delivery.plaintext) as { notification: { title: string; body: string } }).notification);
    expect(shown(french.subscription)).toMatchObject([{ title: 'Soldes', body: 'Today only' }]);
    expect(shown(german.subscription)).toMatchObject([{ title: 'Ausverkauf', body: 'Nur heute' }]);
    expect(shown(other.subscription)).toMatchObject([{ title: 'Sale', body: 'Today only' }]);
  });

  it('deactivates a device whose subscription is gone (410), and a new subscription of the same browser brings it back', async () => {
    const { id: deviceId, subscription } = await browser(fakes().webpush, 'gone-');
    fakes().webpush.expire(subscription.endpoint);
    const id = await send([{ device_id: deviceId }]);
    expect((await settled(id, [deviceId])).get(deviceId)).toMatchObject({ provider: 'webpush', outcome: 'invalid', reason: 'SubscriptionGone' });
    const inactive = await waitFor('the device deactivated', async () => {
      const current = await device(deviceId);
      return current.status === 'inactive' ? current : undefined;
    });
    expect(inactive.deactivation).toMatchObject({ reason: 'SubscriptionGone', provider: 'webpush' });

    // pushsubscriptionchange: the page registers the new subscription as a refresh of the same device.
    const fresh = fakes().webpush.subscribe({ label: 'again-', applicationServerKey: publicKey });
    expect(await register(fresh, { device_id: deviceId, previous_token: subscription.endpoint })).toBe(deviceId);
    await waitFor('the device active on its new endpoint', async () => {
      const current = await device(deviceId);
      return current.status === 'active' && current.token === fresh.endpoint ? current : undefined;
    });
    const again = await send([{ device_id: deviceId }]);
    expect((await settled(again, [deviceId])).get(deviceId)).toMatchObject({ outcome: 'delivered' });
    expect(deliveredTo(fakes().webpush, fresh, again)).toHaveLength(1);
  });

  it('fails a message the push service finds too large (413) and a refused VAPID authorization, and retries a 503 until delivered', async () => {
    fakes().webpush.setRules([
      { prefix: 'large-', status: 413 },
      { prefix: 'flaky-', status: 503, times: 1 },
    ]);
    const large = await browser(fakes().webpush, 'large-');
    const flaky = await browser(fakes().webpush, 'flaky-');
    // Subscribed with another application server key than the one Herald signs with: the push service refuses the JWT.
    const foreign = fakes().webpush.subscribe({ label: 'foreign-', applicationServerKey: generateVapidKey().public_key });
    const foreignId = await register(foreign);
    const id = await send([{ device_id: large.id }, { device_id: flaky.id }, { device_id: foreignId }]);
    const rows = await settled(id, [large.id, flaky.id, foreignId]);
    expect(rows.get(large.id)).toMatchObject({ outcome: 'failed', reason: 'PayloadTooLarge' });
    expect(rows.get(foreignId)).toMatchObject({ outcome: 'failed', reason: 'VapidRejected' });
    expect(rows.get(flaky.id)).toMatchObject({ outcome: 'delivered', attempts: 2 });
    expect(deliveredTo(fakes().webpush, flaky.subscription, id)).toHaveLength(1);
    // Failures are not deactivations.
    expect((await device(large.id)).status).toBe('active');
    expect((await device(foreignId)).status).toBe('active');
    fakes().webpush.setRules([]);
  });

  it("holds back only the push service that answered 429: another origin's devices are delivered meanwhile", async () => {
    fakes().webpush.setRules([{ prefix: 'busy-', status: 429, times: 1, retryAfterSeconds: 20 }]);
    const busy = await browser(fakes().webpush, 'busy-');
    const calm = await browser(fakes().webpushOther, 'calm-');
    const id = await send([{ device_id: busy.id }, { device_id: calm.id }]);
    await waitFor('the other origin delivered', async () => (deliveredTo(fakes().webpushOther, calm.subscription, id).length === 1 ? true : undefined), 60_000);
    // The busy origin's device waits out its Retry-After in the retry lane; the calm one went in the same batch's first send.
    expect(deliveredTo(fakes().webpush, busy.subscription, id)).toHaveLength(0);
    const second = await send([{ device_id: calm.id }]);
    await waitFor("the other origin's next push", async () => (deliveredTo(fakes().webpushOther, calm.subscription, second).length === 1 ? true : undefined), 60_000);
    const rows = await settled(id, [busy.id, calm.id]);
    expect(rows.get(busy.id)).toMatchObject({ outcome: 'delivered' });
    expect(deliveredTo(fakes().webpush, busy.subscription, id)).toHaveLength(1);
    fakes().webpush.setRules([]);
  });

  it('reaches a campaign mixing iOS, Android and web devices exactly once each', async () => {
    const web = await Promise.all([0, 1, 2, 3, 4].map((n) => browser(n % 2 === 0 ? fakes().webpush : fakes().webpushOther, `mix${n}-`, { metadata: { campaign: 'mix' } })));
    const natives = [
      ...[0, 1, 2].map((n) => ({ token: apnsToken(`mix-ios-${n}`), platform: 'ios' })),
      ...[0, 1, 2].map((n) => ({ token: `mix-android-${n}`, platform: 'android' })),
    ];
    const nativeIds: string[] = [];
    for (const native of natives) {
      const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, ...native, metadata: { campaign: 'mix' } } });
      nativeIds.push((response.body!.data as { id: string }).id);
    }
    const everyone = [...web.map((entry) => entry.id), ...nativeIds];
    await waitFor('every mixed device projected with its metadata', async () => {
      const listed = await Promise.all(everyone.map((id) => harness.request('GET', `/api/v1/devices/${id}`, { key: project.api_key })));
      return listed.every((answer) => (answer.body?.data as { metadata?: Record<string, string> } | undefined)?.metadata?.campaign === 'mix') ? true : undefined;
    });
    const dryRun = await harness.request('POST', '/api/v1/notifications/dry-run', { key: project.api_key, body: { notification: { title: 'Hello', body: 'From Herald', targets: [{ metadata: { campaign: 'mix' } }] } } });
    expect(dryRun.body).toEqual({ data: { total: 11, by_platform: { ios: 3, android: 3, web: 5, huawei: 0 } } });
    const id = await send([{ metadata: { campaign: 'mix' } }]);
    const rows = await settled(id, everyone);
    expect([...rows.values()].filter((row) => row.outcome === 'delivered')).toHaveLength(everyone.length);
    expect(new Set([...rows.values()].map((row) => `${row.provider}`))).toEqual(new Set(['apns', 'fcm', 'webpush']));
    for (const entry of web) {
      const fake = fakes().webpush.deliveries.some((delivery) => delivery.endpoint === entry.subscription.endpoint) ? fakes().webpush : fakes().webpushOther;
      expect(deliveredTo(fake, entry.subscription, id)).toHaveLength(1);
    }
    const apns = fakes().apns.deliveries.filter((delivery) => (delivery.payload as { notification_id?: string }).notification_id === id);
    const fcm = fakes().fcm.deliveries.filter((delivery) => (delivery.message.data as { notification_id?: string } | undefined)?.notification_id === id);
    expect(apns).toHaveLength(3);
    expect(fcm).toHaveLength(3);
    // The notification's counts are another projection than the receipts: they may follow a moment later.
    const counts = await waitFor('the counts by provider', async () => {
      const data = (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body!.data as { counts_by_provider: Record<string, { targeted: number; delivered: number } | undefined> };
      const { apns, fcm, webpush } = data.counts_by_provider;
      return apns?.delivered === 3 && fcm?.delivered === 3 && webpush?.delivered === 5 ? data.counts_by_provider : undefined;
    });
    expect([counts.apns!.targeted, counts.fcm!.targeted, counts.webpush!.targeted]).toEqual([3, 3, 5]);
    // Nothing any test here sent was dead-lettered by a webpush lane.
    expect(await deliveryDeadLetters(harness.env.kafka, ['webpush', 'webpushExpress', 'webpushRetry'])).toEqual({ 'herald.webpush': 0, 'herald.webpush-express': 0, 'herald.webpush-retry': 0 });
  });

  // Last: after it, the project's current key is the new one.
  it('keeps signing older subscriptions with the key they were made with after a rotation, and new ones with the new key', async () => {
    const before = await browser(fakes().webpush, 'old-key-');
    const rotated = await fakes().vapid.generate(project.id, undefined);
    const newKey = rotated.keys.find((key) => key.id === rotated.current_key_id)!.public_key;
    const subscription = fakes().webpush.subscribe({ label: 'new-key-', applicationServerKey: newKey });
    // The API knows a new key within its 5 s cache.
    const after = await waitFor('the new key accepted at registration', async () => {
      const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'web', subscription, application_server_key: newKey } });
      return response.status === 201 ? (response.body!.data as { id: string }).id : undefined;
    });
    const id = await send([{ device_id: before.id }, { device_id: after }]);
    const rows = await settled(id, [before.id, after]);
    expect([rows.get(before.id)?.outcome, rows.get(after)?.outcome]).toEqual(['delivered', 'delivered']);
    expect(deliveredTo(fakes().webpush, before.subscription, id)[0]!.vapid.key).toBe(publicKey);
    expect(deliveredTo(fakes().webpush, subscription, id)[0]!.vapid.key).toBe(newKey);
  });
});

