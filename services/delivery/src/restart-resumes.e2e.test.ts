import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, topicIdFor, TOPICS, type HeraldEvent } from '@herald/events';
import { outputTails, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * A restart always resumes delivery: after each flow that writes to the
 * delivery topics (a cancel, a pause, a resume and a re-rate, a provider's
 * 429, a pending schedule, a dead letter redriven, a webhook, a campaign in
 * flight), every process is stopped (Ctrl-C's SIGTERM, then kill -9) and
 * started again on the same state, and a one-device send is delivered
 * within 30 s of the stack reporting ready. Several of those flows are
 * written in Kafka transactions, so a topic's last offset is a commit
 * marker no consumer receives: a start-up wait that compared the last
 * record with the high watermark never ended.
 */
const IOS_TOKEN = 'a1'.repeat(32);
const ANDROID_TOKEN = 'restart-android-token';
const CAMPAIGN_DEVICES = 600;
const READY_TO_DELIVERED_MS = 30_000;

let harness: ApiHarness;
let project: { id: string; api_key: string };
let receiver: Server;
let receiverUrl: string;
let webhookBatches = 0;

const key = () => project.api_key;
const post = (path: string, body: unknown) => harness.request('POST', path, { key: key(), body });
const patch = (path: string, body: unknown) => harness.request('PATCH', path, { key: key(), body });
const view = async (id: string) => (await harness.request('GET', `/api/v1/notifications/${id}`, { key: key() })).body?.data as { status: string; counts: Record<string, number> } | undefined;
const send = async (notification: Record<string, unknown>) => {
  const response = await post('/api/v1/notifications', { notification: { title: 'Hello', body: 'there', ...notification } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body!.data as { id: string }).id;
};
const pushedTo = (id: string) =>
  harness.fakes!.apns.deliveries.filter((d) => (d.payload as { notification_id?: string }).notification_id === id).length +
  harness.fakes!.fcm.deliveries.filter((d) => (d.message.data as { notification_id?: string } | undefined)?.notification_id === id).length;

/** Stops every process with `signal`, starts them again, and checks a one-device send gets through. */
async function restartAndSendOne(signal: NodeJS.Signals, flow: string): Promise<void> {
  await harness.restartAll(signal);
  const ready = Date.now();
  const id = await send({ targets: [{ device_id: iosDeviceId }] });
  try {
    await waitFor(`the one-device send after ${flow} and ${signal}`, () => pushedTo(id) >= 1, READY_TO_DELIVERED_MS);
  } catch (error) {
    process.stderr.write(outputTails(harness, 60));
    throw error;
  }
  process.stdout.write(`restart after ${flow} (${signal}): one-device send delivered ${Date.now() - ready} ms after ready\n`);
}

let iosDeviceId: string;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      webhookBatches += 1;
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  harness = await startApiHarness('restart-resumes', {
    delivery: true,
    fcmRules: [{ prefix: 'throttled-', errorCode: 'QUOTA_EXCEEDED', retryAfterSeconds: 1, times: 1 }],
    apiEnv: { WEBHOOKS_LOCAL: 'on' },
    webhooks: true,
    webhooksEnv: { WEBHOOKS_LOCAL: 'on', WEBHOOK_REFRESH_MS: '500' },
  });
  project = await harness.createProject('restart-resumes');
  await harness.fakes!.configure(project.id);
  const registered = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token: IOS_TOKEN, platform: 'ios' } });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  iosDeviceId = (registered.body!.data as { id: string }).id;
  for (const token of [ANDROID_TOKEN, 'throttled-android-token']) {
    expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform: 'android' } })).status).toBe(201);
  }
}, 240_000);

afterAll(async () => {
  await harness?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()) ?? resolve());
});

/** Each flow leaves records behind (many in transactions); the restarts after it read them all at start-up. */
const flows: Array<[string, () => Promise<void>]> = [
  [
    'a cancelled schedule',
    async () => {
      const id = await send({ targets: [{ device_id: iosDeviceId }], send_at: new Date(Date.now() + 3_600_000).toISOString() });
      expect((await post(`/api/v1/notifications/${id}/cancel`, {})).status).toBe(202);
      await waitFor('the cancel projected', async () => (await view(id))?.status === 'cancelled', 30_000);
    },
  ],
  [
    'a pause, a re-rate and a resume',
    async () => {
      const id = await send({ targets: [{ device_id: iosDeviceId }], send_at: new Date(Date.now() + 3_600_000).toISOString(), rate_per_minute: 600 });
      expect((await patch(`/api/v1/notifications/${id}`, { state: 'paused' })).status).toBe(202);
      expect((await patch(`/api/v1/notifications/${id}`, { rate_per_minute: 1_200 })).status).toBe(202);
      expect((await patch(`/api/v1/notifications/${id}`, { state: 'sending' })).status).toBe(202);
      expect((await post(`/api/v1/notifications/${id}/cancel`, {})).status).toBe(202);
    },
  ],
  [
    "a provider's 429",
    async () => {
      const id = await send({ targets: [{ token: 'throttled-android-token' }] });
      await waitFor('the throttled push delivered', () => pushedTo(id) >= 1, 30_000);
    },
  ],
  [
    'a pending schedule',
    async () => {
      await send({ targets: [{ device_id: iosDeviceId }], send_at: new Date(Date.now() + 3_600_000).toISOString() });
    },
  ],
  [
    'a dead letter redriven',
    async () => {
      await harness.env.producer.publishRaw([{ topic: harness.env.kafka.topic(TOPICS.deliveriesApns), messages: [{ key: 'junk', value: '{"type":"DeliveryBatch","version":1}' }] }]);
      const dlq = 'herald.deliveries.apns.dlq.herald.apns';
      await waitFor('the junk batch dead-lettered', async () => (await harness.herald('dlq', 'list', '--records', '--json', '--topic', dlq)).includes('"ref"'), 30_000);
      await harness.herald('dlq', 'redrive', '--topic', dlq);
    },
  ],
  [
    'a webhook',
    async () => {
      const created = await post('/api/v1/webhooks', { url: receiverUrl, batch: { max_events: 10, max_wait_ms: 100 } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const before = webhookBatches;
      await send({ targets: [{ token: ANDROID_TOKEN }] });
      await waitFor('a webhook batch received', () => webhookBatches > before, 30_000);
    },
  ],
  [
    'a campaign in flight',
    async () => {
      const topicId = topicIdFor(project.id, 'campaign');
      const context = { project_id: project.id };
      const events: HeraldEvent[] = [createEvent('TopicCreated', { topic_id: topicId, name: 'campaign' }, context)];
      for (let i = 0; i < CAMPAIGN_DEVICES; i += 1) {
        const token = (i + 1).toString(16).padStart(64, '0');
        events.push(createEvent('DeviceRegistered', { device_id: deviceIdFor(project.id, token), token, platform: 'ios', topic_ids: [topicId] }, context));
      }
      // Acknowledged before the send: in its audience (exact audiences), projected or not.
      await harness.env.producer.publish(events);
      harness.fakes!.apns.setLatency(100);
      const id = await send({ targets: [{ topic: 'campaign' }] });
      await waitFor('the campaign started', () => pushedTo(id) > 0, 60_000);
      campaignId = id;
    },
  ],
];
let campaignId: string | undefined;

describe('a restart always resumes delivery', () => {
  for (const [flow, run] of flows) {
    it(`after ${flow}, with SIGTERM and with kill -9`, async () => {
      await run();
      await restartAndSendOne('SIGTERM', flow);
      harness.fakes!.apns.setLatency(0);
      await restartAndSendOne('SIGKILL', flow);
    }, 240_000);
  }

  it('completes the campaign that was in flight, losing no device', async () => {
    const id = campaignId!;
    const done = await waitFor('the campaign sent', async () => {
      const data = await view(id);
      return data?.status === 'sent' && (data.counts.delivered ?? 0) >= CAMPAIGN_DEVICES ? data : undefined;
    }, 120_000).catch(async (error: unknown) => {
      process.stderr.write(`DIAG counts ${JSON.stringify(await view(id))}\n`);
      throw error;
    });
    const tokens = new Set(harness.fakes!.apns.deliveries.filter((d) => (d.payload as { notification_id?: string }).notification_id === id).map((d) => d.token));
    const missing = Array.from({ length: CAMPAIGN_DEVICES }, (_, i) => (i + 1).toString(16).padStart(64, '0')).filter((token) => !tokens.has(token));
    if (missing.length > 0) process.stderr.write(`DIAG missing ${missing.length}: ${missing.map((t) => t.replace(/^0+/, '')).join(',')}\n${outputTails(harness, 200)}\n`);
    expect(done.counts).toMatchObject({ targeted: CAMPAIGN_DEVICES, delivered: CAMPAIGN_DEVICES, failed: 0 });
    expect(tokens.size).toBe(CAMPAIGN_DEVICES);
  }, 180_000);
});

describe('a quiet stack', () => {
  it('reads lag 0 for every consumer group (transaction markers are not lag)', async () => {
    interface Row { group: string; topic: string; lag: number; exact: boolean }
    let rows: Row[] = [];
    try {
      await waitFor('every group at lag 0', async () => {
        rows = JSON.parse(await harness.herald('lag', '--json')) as Row[];
        return rows.length > 0 && rows.every((row) => row.lag === 0 && row.exact);
      }, 60_000);
    } catch (error) {
      process.stderr.write(`lag rows: ${JSON.stringify(rows.filter((row) => row.lag !== 0))}\n`);
      throw error;
    }
  }, 90_000);
});
