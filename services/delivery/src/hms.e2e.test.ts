import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceIdFor } from '@herald/events';
import type { HmsDelivery } from '@herald/fake-providers';
import { partitionForKey } from '@herald/kafka';
import { apnsToken, deliveryDeadLetters, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * Huawei Push Kit end to end (docs/guides/huawei.md): huawei devices
 * registered through the API, sends through the fan-out and the hms senders
 * over the real Kafka and store, to the fake Push Kit, which checks the OAuth
 * bearer and the body and records each accepted multicast.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
const fakes = () => harness.fakes!;

interface Receipt {
  device_id: string;
  provider: string;
  outcome: string;
  reason: string | null;
}

beforeAll(async () => {
  harness = await startApiHarness('hms-send', {
    delivery: true,
    apiEnv: { WEBPUSH_LOCAL: 'on' },
    // busy-: one 503 with Retry-After 1 s, then accepted; bad-: listed as illegal in a partial success.
    hmsRules: [
      { prefix: 'busy-', answer: 503, times: 1, retryAfterSeconds: 1 },
      { prefix: 'bad-', answer: 'illegal' },
    ],
  });
  project = await harness.createProject('hms-send');
  await fakes().configure(project.id);
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

/** The harness's KAFKA_PARTITIONS: devices on one device-events partition are fanned out by one task, into one batch. */
const PARTITIONS = 3;

/**
 * An HMS push token of the form Push Kit hands out, starting with `label`
 * (the fake's rules match it), of a device on device-events partition 0:
 * the devices of one test share a batch, so one multicast.
 */
function hmsToken(label: string): string {
  for (;;) {
    const token = `${label}${randomBytes(48).toString('base64url')}`;
    if (partitionForKey(deviceIdFor(project.id, token), PARTITIONS) === 0) return token;
  }
}

async function createTopic(): Promise<string> {
  const name = `hms-${randomBytes(4).toString('hex')}`;
  const response = await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  // Registration checks topics against the read model: wait until the topic is projected.
  await waitFor(`topic ${name} projected`, async () => {
    const topics = (await harness.request('GET', '/api/v1/topics?limit=100', { key: project.api_key })).body?.data as Array<{ name: string }> | undefined;
    return topics?.some((topic) => topic.name === name) === true ? true : undefined;
  });
  return name;
}

async function register(body: Record<string, unknown>): Promise<string> {
  const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, ...body } });
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  return (response.body!.data as { id: string }).id;
}

async function huawei(label: string, extra: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
  const token = hmsToken(label);
  return { id: await register({ platform: 'huawei', token, ...extra }), token };
}

async function send(targets: unknown[], notification: Record<string, unknown> = {}): Promise<string> {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Hello', body: 'From Herald', targets, ...notification } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body!.data as { id: string }).id;
}

function settled(id: string, devices: readonly string[]): Promise<Map<string, Receipt>> {
  return waitFor(`receipts of ${devices.length} devices for ${id}`, async () => {
    const response = await harness.request('GET', `/api/v1/notifications/${id}/receipts?limit=100`, { key: project.api_key });
    const rows = new Map(((response.body?.data as Receipt[] | undefined) ?? []).map((row) => [row.device_id, row]));
    return devices.every((device) => rows.has(device)) ? rows : undefined;
  }, 90_000);
}

const multicastsOf = (id: string): HmsDelivery[] => fakes().hms.deliveries.filter((delivery) => (JSON.parse(delivery.message.data as string) as { notification_id?: string }).notification_id === id);

async function device(id: string): Promise<{ status: string; platform: string; deactivation: { reason: string; provider?: string } | null }> {
  return (await harness.request('GET', `/api/v1/devices/${id}`, { key: project.api_key })).body!.data as never;
}

describe('Huawei Push Kit sending', () => {
  it('refuses a huawei registration whose token Push Kit can never accept, naming token', async () => {
    for (const token of ['short', `has space ${'x'.repeat(40)}`]) {
      const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'huawei', token } });
      expect(response.status).toBe(400);
      expect((response.body as { errors: string[] }).errors.join(' ')).toMatch(/^token must be an HMS push token/);
    }
    const missing = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'huawei' } });
    expect(missing.status).toBe(400);
    expect((missing.body as { errors: string[] }).errors).toEqual(['token is required for platform huawei']);
  });

  it('sends one multicast with every token of the batch, with hms receipts, counts and a dry run by platform', async () => {
    const topic = await createTopic();
    const devices = await Promise.all(['a-', 'b-', 'c-'].map((label) => huawei(label, { topics: [topic] })));
    // Devices are read (and dry runs counted) from the read model: the registrations must be projected first.
    const readable = async ({ id }: { id: string }) => (await harness.request('GET', `/api/v1/devices/${id}`, { key: project.api_key })).status === 200;
    await waitFor('the three devices projected', async () => (await Promise.all(devices.map(readable))).every(Boolean));
    expect((await device(devices[0]!.id)).platform).toBe('huawei');
    const dry = await harness.request('POST', '/api/v1/notifications/dry-run', { key: project.api_key, body: { notification: { title: 'Hello', body: 'x', targets: [{ topic }] } } });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body!.data).toMatchObject({ total: 3, by_platform: { ios: 0, android: 0, web: 0, huawei: 3 } });

    const id = await send([{ topic }], { data: { order: '42' }, ttl: 600, priority: 'high' });
    const rows = await settled(id, devices.map((d) => d.id));
    for (const d of devices) expect(rows.get(d.id)).toMatchObject({ provider: 'hms', outcome: 'delivered' });
    const multicasts = multicastsOf(id);
    expect(multicasts).toHaveLength(1);
    expect(multicasts[0]!.tokens.sort()).toEqual(devices.map((d) => d.token).sort());
    expect(multicasts[0]!.appId).toMatch(/^\d+$/);
    expect(JSON.parse(multicasts[0]!.message.data as string)).toEqual({ order: '42', notification_id: id, project_id: project.id });
    expect(multicasts[0]!.message.android).toMatchObject({ urgency: 'HIGH', ttl: '600s', notification: { title: 'Hello', body: 'From Herald' } });
    const shown = await waitFor('hms counts', async () => {
      const data = (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body!.data as { counts_by_provider?: { hms?: { targeted: number; delivered: number } } };
      return data.counts_by_provider?.hms?.delivered === 3 ? data : undefined;
    });
    expect(shown.counts_by_provider!.hms!.targeted).toBe(3);
  });

  it('on a partial success marks the illegal tokens invalid and deactivates their devices, the rest delivered', async () => {
    const topic = await createTopic();
    const good = await huawei('ok-', { topics: [topic] });
    const bad = await Promise.all([huawei('bad-1', { topics: [topic] }), huawei('bad-2', { topics: [topic] })]);
    const id = await send([{ topic }]);
    const rows = await settled(id, [good.id, ...bad.map((d) => d.id)]);
    expect(rows.get(good.id)).toMatchObject({ provider: 'hms', outcome: 'delivered' });
    for (const d of bad) expect(rows.get(d.id)).toMatchObject({ provider: 'hms', outcome: 'invalid', reason: 'IllegalToken' });
    for (const d of bad) {
      const inactive = await waitFor('the device deactivated', async () => {
        const current = await device(d.id);
        return current.status === 'inactive' ? current : undefined;
      });
      expect(inactive.deactivation).toMatchObject({ reason: 'IllegalToken', provider: 'hms' });
    }
    expect((await device(good.id)).status).toBe('active');
    expect(multicastsOf(id).flatMap((delivery) => delivery.tokens)).toEqual([good.token]);
  });

  it('refreshes an expired OAuth token and sends again once, and waits out a 503 before delivering', async () => {
    const first = await huawei('fresh-');
    await settled(await send([{ device_id: first.id }]), [first.id]);
    const grantedBefore = fakes().hms.tokensGranted;
    fakes().hms.expireTokens();
    const again = await huawei('expired-');
    const id = await send([{ device_id: again.id }]);
    expect((await settled(id, [again.id])).get(again.id)).toMatchObject({ provider: 'hms', outcome: 'delivered' });
    expect(fakes().hms.tokensGranted).toBe(grantedBefore + 1);
    expect(multicastsOf(id)).toHaveLength(1);

    const busy = await huawei('busy-');
    const rejectedBefore = fakes().hms.stats.byReason['503'] ?? 0;
    const busyId = await send([{ device_id: busy.id }]);
    expect((await settled(busyId, [busy.id])).get(busy.id)).toMatchObject({ provider: 'hms', outcome: 'delivered' });
    expect(multicastsOf(busyId).map((delivery) => delivery.tokens)).toEqual([[busy.token]]);
    expect(fakes().hms.stats.byReason['503']).toBe(rejectedBefore + 1);
  });

  it('fails a project without a Push Kit credential NoHmsCredentials, and explain says how to set it', async () => {
    const bare = await harness.createProject('hms-bare');
    const token = hmsToken('bare-');
    const registered = await harness.request('POST', '/api/v1/devices', { body: { project_id: bare.id, platform: 'huawei', token } });
    expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
    const deviceId = (registered.body!.data as { id: string }).id;
    const sent = await harness.request('POST', '/api/v1/notifications', { key: bare.api_key, body: { notification: { title: 'Hello', body: 'x', targets: [{ device_id: deviceId }] } } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const id = (sent.body!.data as { id: string }).id;
    const receipt = await waitFor('the receipt', async () => {
      const rows = (await harness.request('GET', `/api/v1/notifications/${id}/receipts`, { key: bare.api_key })).body?.data as Receipt[] | undefined;
      return rows?.find((row) => row.device_id === deviceId);
    }, 90_000);
    expect(receipt).toMatchObject({ provider: 'hms', outcome: 'failed', reason: 'NoHmsCredentials' });
    const explained = await harness.request('GET', `/api/v1/notifications/${id}/explain?device_id=${deviceId}`, { key: bare.api_key });
    expect(explained.status, JSON.stringify(explained.body)).toBe(200);
    expect((explained.body!.data as { device: { summary: string } }).device.summary).toContain('herald providers hms <project-id>');
    expect(multicastsOf(id)).toEqual([]);
  });

  it('a campaign to ios, android, web and huawei devices reaches each device once, through its own provider', async () => {
    const topic = await createTopic();
    const keys = await fakes().vapid.generate(project.id, 'mailto:push@example.com');
    const ios = apnsToken(`mix-${topic}`);
    const android = `mix-${randomBytes(8).toString('hex')}:${randomBytes(60).toString('base64url')}`;
    const subscription = fakes().webpush.subscribe({ label: 'mix-', applicationServerKey: keys.keys[0]!.public_key });
    const hw = await huawei('mix-', { topics: [topic] });
    const ids = {
      ios: await register({ platform: 'ios', token: ios, topics: [topic] }),
      android: await register({ platform: 'android', token: android, topics: [topic] }),
      web: await register({ platform: 'web', subscription, topics: [topic] }),
      huawei: hw.id,
    };
    const id = await send([{ topic }]);
    const rows = await settled(id, Object.values(ids));
    expect(Object.fromEntries(Object.entries(ids).map(([platform, deviceId]) => [platform, [rows.get(deviceId)!.provider, rows.get(deviceId)!.outcome]]))).toEqual({
      ios: ['apns', 'delivered'],
      android: ['fcm', 'delivered'],
      web: ['webpush', 'delivered'],
      huawei: ['hms', 'delivered'],
    });
    const ofSend = (data: unknown) => (data as { notification_id?: string } | undefined)?.notification_id === id;
    expect(fakes().apns.deliveries.filter((d) => ofSend(d.payload)).map((d) => d.token)).toEqual([ios]);
    expect(fakes().fcm.deliveries.filter((d) => ofSend(d.message.data)).map((d) => d.token)).toEqual([android]);
    expect(fakes().webpush.deliveries.filter((d) => d.endpoint === subscription.endpoint && ofSend((JSON.parse(d.plaintext) as { data?: unknown }).data))).toHaveLength(1);
    expect(multicastsOf(id).flatMap((d) => d.tokens)).toEqual([hw.token]);
    expect(await deliveryDeadLetters(harness.env.kafka, ['hms', 'hmsExpress', 'hmsRetry'])).toEqual({ 'herald.hms': 0, 'herald.hms-express': 0, 'herald.hms-retry': 0 });
  });
});
