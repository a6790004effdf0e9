import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadLetterTopic, TOPICS } from '@herald/events';
import type { DeliveryLedgerDocument, LedgerDevice } from '@herald/read-models';
import { createTopics, startApiHarness, waitFor, type ApiHarness, apnsToken, apnsTokenPrefix } from '@herald/testing';

/**
 * The whole pipeline over real Kafka and FerretDB with fake APNs and FCM
 * speaking the real protocols: API → fan-out → senders → providers →
 * DeliveryReported / DeviceDeactivated → projections → API.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
const fakes = () => harness.fakes!;

beforeAll(async () => {
  harness = await startApiHarness('delivery', {
    delivery: true,
    apnsRules: [{ prefix: apnsTokenPrefix('dead-'), status: 410, reason: 'Unregistered', timestamp: Date.now() + 60_000 }],
    fcmRules: [
      { prefix: 'gone-', errorCode: 'UNREGISTERED' },
      { prefix: 'busy-', errorCode: 'QUOTA_EXCEEDED', retryAfterSeconds: 1, times: 1 },
    ],
  });
  project = await harness.createProject('delivery');
  await fakes().configure(project.id);
  await createTopics(harness, project.api_key, ['news', 'doomed', 'busy']);
  const devices: Array<[string, 'ios' | 'android', Record<string, unknown>]> = [
    [apnsToken('ios-news-1'), 'ios', { topics: ['news'] }],
    [apnsToken('ios-news-2'), 'ios', { topics: ['news'], metadata: { plan: 'pro' } }],
    ['android-news', 'android', { topics: ['news'] }],
    ['android-pro', 'android', { metadata: { plan: 'pro', lang: 'nb' } }],
    ['android-free', 'android', { metadata: { plan: 'free' } }],
    [apnsToken('dead-ios'), 'ios', { topics: ['doomed'] }],
    ['gone-android', 'android', { topics: ['doomed'] }],
    ['busy-android', 'android', { topics: ['busy'] }],
  ];
  for (const [token, platform, extra] of devices) {
    expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform, ...extra } })).status).toBe(201);
  }
  await waitFor('devices projected', async () => ((await harness.request('GET', '/api/v1/devices', { key: project.api_key })).body?.pagination as { count: number }).count === devices.length);
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0, delivery: 0 });
});

type Counts = { targeted: number; sent: number; delivered: number; failed: number; invalid: number; opened: number };

async function send(targets: unknown[]): Promise<string> {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Hello', body: 'World', targets, group: 'g1', link_to: 'app://x' } } });
  expect(response.status).toBe(201);
  return (response.body!.data as { id: string }).id;
}

async function completed(id: string): Promise<{ status: string; counts: Counts }> {
  return waitFor(`notification ${id} completed`, async () => {
    const data = (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string; counts: Counts } | undefined;
    return data?.status === 'sent' ? data : undefined;
  }, 30_000);
}

/** Tokens the fakes received a push of this notification for, with repeats. */
function tokensReached(id: string): string[] {
  const apns = fakes().apns.deliveries.filter((d) => (d.payload as { notification_id?: string }).notification_id === id).map((d) => d.token);
  const fcm = fakes().fcm.deliveries.filter((d) => (d.message.data as { notification_id?: string } | undefined)?.notification_id === id).map((d) => d.token);
  return [...apns, ...fcm].sort();
}

/** Every device line of this notification's delivery ledger (one document per batch). */
async function ledgerLines(id: string): Promise<LedgerDevice[]> {
  const batches = await harness.env.driverDb.collection<DeliveryLedgerDocument>('delivery_ledger_v1').find({ notification_id: id }).toArray();
  return batches.flatMap((batch) => batch.devices);
}

describe('delivery', () => {
  it.each([
    ['a topic name', ['news'], ['android-news', apnsToken('ios-news-1'), apnsToken('ios-news-2')]],
    ['a metadata filter', [{ metadata: { plan: 'pro' } }], ['android-pro', apnsToken('ios-news-2')]],
    ['a token', [{ token: 'android-free' }], ['android-free']],
    ['overlapping targets, once each', ['news', { metadata: { plan: 'pro' } }, apnsToken('ios-news-1')], ['android-news', 'android-pro', apnsToken('ios-news-1'), apnsToken('ios-news-2')]],
  ])('reaches exactly the devices %s targets, once each', async (_label, targets, expected) => {
    const id = await send(targets);
    const result = await completed(id);
    expect(tokensReached(id)).toEqual([...expected].sort());
    expect(result.counts).toMatchObject({ targeted: expected.length, sent: expected.length, delivered: expected.length, failed: 0, invalid: 0 });
  });

  it('reaches a device by its id, with the payload ARCHITECTURE.md describes', async () => {
    const list = (await harness.request('GET', '/api/v1/devices?limit=100', { key: project.api_key })).body!.data as Array<{ id: string; token: string }>;
    const device = list.find((d) => d.token === apnsToken('ios-news-1'))!;
    const id = await send([device.id]);
    await completed(id);
    expect(tokensReached(id)).toEqual([apnsToken('ios-news-1')]);
    const delivery = fakes().apns.deliveries.find((d) => (d.payload as { notification_id?: string }).notification_id === id)!;
    expect(delivery.payload).toEqual({ aps: { alert: { title: 'Hello', body: 'World' }, 'thread-id': 'g1' }, notification_id: id, project_id: project.id, link_to: 'app://x' });
    expect(delivery.headers).toMatchObject({ 'apns-topic': 'com.example.herald', 'apns-push-type': 'alert' });
    expect(delivery.headers['apns-collapse-id']).toBeUndefined();
  });

  it('deactivates Unregistered tokens, sends nothing to inactive devices, and re-registration reactivates', async () => {
    const id = await send(['doomed']);
    const result = await completed(id);
    expect(result.counts).toMatchObject({ targeted: 2, sent: 2, delivered: 0, invalid: 2 });
    const statusOf = async (token: string) =>
      ((await harness.request('GET', '/api/v1/devices?limit=100', { key: project.api_key })).body!.data as Array<{ token: string; status: string }>).find((d) => d.token === token)?.status;
    await waitFor('both devices inactive within 5 s', async () => (await statusOf(apnsToken('dead-ios'))) === 'inactive' && (await statusOf('gone-android')) === 'inactive', 5_000);

    const again = await send(['doomed']);
    expect((await completed(again)).counts).toMatchObject({ targeted: 0, sent: 0 });
    expect(fakes().apns.stats.byReason.Unregistered).toBe(1);

    await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token: apnsToken('dead-ios'), platform: 'ios' } });
    await waitFor('dead-ios active again', async () => (await statusOf(apnsToken('dead-ios'))) === 'active');
  });

  it('honours 429 with Retry-After, then delivers', async () => {
    const id = await send(['busy']);
    const result = await completed(id);
    expect(result.counts).toMatchObject({ targeted: 1, delivered: 1, failed: 0 });
    expect(fakes().fcm.stats.byReason.QUOTA_EXCEEDED).toBe(1);
    // The ledger is its own read model: completed counts do not mean the ledger is projected yet.
    const lines = await waitFor('the batch in the delivery ledger', async () => {
      const found = await ledgerLines(id);
      return found.length > 0 ? found : undefined;
    });
    expect(lines).toMatchObject([{ outcome: 'delivered' }]);
    // The accepted push came at least Retry-After (1 s) after the request that was refused.
    const created = Date.parse(((await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body!.data as { created_at: string }).created_at);
    const accepted = fakes().fcm.deliveries.find((d) => (d.message.data as { notification_id?: string }).notification_id === id)!;
    expect(accepted.receivedAt - created).toBeGreaterThanOrEqual(1_000);
  });

  it('dead-letters a malformed batch and keeps delivering', async () => {
    await harness.env.producer.publishRaw([{ topic: harness.env.kafka.topic(TOPICS.deliveriesApns), messages: [{ key: 'junk', value: '{"type":"DeliveryBatch","version":1}' }] }]);
    const id = await send([apnsToken('ios-news-2')]);
    await completed(id);
    expect(tokensReached(id)).toEqual([apnsToken('ios-news-2')]);
    const consumer = harness.env.kafka.client.consumer({ groupId: `${harness.env.prefix}dlq-reader`, maxWaitTimeInMs: 100 });
    const letters: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: harness.env.kafka.topic(deadLetterTopic(TOPICS.deliveriesApns, 'herald.apns')), fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void letters.push(message.value?.toString() ?? '') });
    try {
      await waitFor('the malformed batch in the dead-letter topic', () => letters.includes('{"type":"DeliveryBatch","version":1}'));
    } finally {
      await consumer.disconnect();
    }
  });

  it('records opens from recipients only', async () => {
    const id = await send(['news']);
    await completed(id);
    await waitFor('3 deliveries in the ledger', async () => (await ledgerLines(id)).filter((line) => line.outcome === 'delivered').length === 3);
    const open = (token: string, projectId = project.id) => harness.request('PUT', `/api/v1/notifications/${id}/open`, { body: { project_id: projectId, token } });
    expect((await open(apnsToken('ios-news-1'))).status).toBe(204);
    expect((await open(apnsToken('ios-news-1'))).status).toBe(204);
    expect((await open('android-news')).status).toBe(204);
    expect((await open('android-free')).status).toBe(404);
    expect((await open('unknown-token')).status).toBe(404);
    expect((await open(apnsToken('ios-news-1'), 'other-project')).status).toBe(404);
    expect((await harness.request('PUT', '/api/v1/notifications/01a1fe1a-0000-7000-8000-000000000000/open', { body: { project_id: project.id, token: apnsToken('ios-news-1') } })).status).toBe(404);
    expect((await harness.request('PUT', '/api/v1/notifications/not-a-uuid/open', { body: { project_id: project.id, token: apnsToken('ios-news-1') } })).status).toBe(400);
    expect(await harness.request('PUT', `/api/v1/notifications/${id}/open`, { body: { project_id: project.id } })).toEqual({ status: 400, body: { errors: ['token is required'] } });
    const opened = await waitFor('two opens counted', async () => {
      const counts = ((await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { counts: Counts }).counts;
      return counts.opened === 2 ? counts : undefined;
    });
    expect(opened.opened).toBe(2);
    await waitFor('two opens marked in the ledger', async () => (await ledgerLines(id)).filter((line) => line.opened_at !== undefined).length === 2);
  });

  it('exposes Prometheus metrics on every service', async () => {
    const scrape = async (service: string) => (await fetch(harness.metricsUrls[service]!)).text();
    const api = await scrape('api');
    expect(api).toMatch(/herald_http_requests_total\{[^}]*method="POST",route="\/api\/v1\/notifications",status="201"[^}]*\} \d+/);
    expect(api).toMatch(/herald_events_produced_total\{[^}]*topic="herald.notification-events",type="NotificationRequested"[^}]*\} \d+/);
    expect(api).toContain('herald_http_request_duration_seconds_bucket');
    const projector = await scrape('projector');
    expect(projector).toMatch(/herald_events_consumed_total\{[^}]*group="herald.projector.notifications.v1",topic="herald.notification-events",type="DeliveryReported"[^}]*\} \d+/);
    expect(projector).toMatch(/herald_consumer_lag\{[^}]*group="herald.projector.devices.v1"/);
    const delivery = await scrape('delivery');
    expect(delivery).toMatch(/herald_deliveries_total\{[^}]*provider="apns",outcome="delivered"[^}]*\} \d+/);
    expect(delivery).toMatch(/herald_deliveries_total\{[^}]*provider="fcm",outcome="invalid"[^}]*\} 1/);
    expect(delivery).toMatch(/herald_provider_send_duration_seconds_count\{[^}]*provider="fcm"[^}]*\} \d+/);
    expect(delivery).toMatch(/herald_events_produced_total\{[^}]*topic="herald.deliveries(-express)?.apns",type="DeliveryBatch"[^}]*\} \d+/);
  });
});
