import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apnsToken, outputTails, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * Restarts of the flows added last, each with `kill -9` and with SIGTERM,
 * over the real Kafka and store:
 * - Live Activity updates accepted (POST /api/v1/live-activities) while the
 *   delivery process is down are delivered once it is back (its
 *   herald.live-activities group resumes), and the device never takes an
 *   older update after a newer one (the fake APNs refuses a timestamp not
 *   above the token's last, as a device ignores it);
 * - a paused webhook stays paused through restarts of the webhooks process,
 *   and resumed, it posts what it missed once per event.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
let receiver: Server;
let receiverUrl: string;
let androidId: string;
/** What each webhook (by the path it posts to) received: an entry per event per time received. */
const received = new Map<string, Array<{ id: string; notificationId: string | undefined }>>();
const apns = () => harness.fakes!.apns;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { events } = JSON.parse(body) as { events: Array<{ id: string; data: { notification_id?: string } }> };
      const path = request.url ?? '';
      received.set(path, [...(received.get(path) ?? []), ...events.map((event) => ({ id: event.id, notificationId: event.data.notification_id }))]);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  harness = await startApiHarness('restart-la-webhooks', {
    delivery: true,
    apiEnv: { WEBHOOKS_LOCAL: 'on' },
    webhooks: true,
    webhooksEnv: { WEBHOOKS_LOCAL: 'on', WEBHOOK_REFRESH_MS: '250' },
  });
  project = await harness.createProject('restart-la-webhooks');
  await harness.fakes!.configure(project.id);
  const android = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'android', token: 'rs-la-android' } });
  expect(android.status, JSON.stringify(android.body)).toBe(201);
  androidId = (android.body!.data as { id: string }).id;
}, 240_000);

afterAll(async () => {
  await harness?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

const post = async (path: string, body: unknown) => harness.request('POST', path, { key: project.api_key, body });

interface LiveActivitySent {
  id: string;
  status: string;
  timestamp: number;
  outcomes: Array<{ device_id: string; outcome: string; reason?: string }>;
  coalesced_into?: string | null;
}

async function liveActivity(body: Record<string, unknown>): Promise<LiveActivitySent> {
  const response = await post('/api/v1/live-activities', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body!.data as LiveActivitySent;
}

/** The push once it is no longer `accepted`: `sent` with its outcomes, or `coalesced` into a newer update (never sent). */
function reported(id: string): Promise<LiveActivitySent> {
  return waitFor(`live activity push ${id} reported`, async () => {
    const sent = (await harness.request('GET', `/api/v1/live-activities/${id}`, { key: project.api_key })).body?.data as LiveActivitySent | undefined;
    return sent !== undefined && sent.status !== 'accepted' ? sent : undefined;
  }, 120_000).catch((error: unknown) => {
    process.stderr.write(outputTails(harness, 60));
    throw error;
  });
}

type Aps = { timestamp: number; 'content-state': { eta: number } };
const apsTo = (token: string) => apns().deliveries.filter((delivery) => delivery.token === token).map((delivery) => (delivery.payload as { aps: Aps }).aps);

describe('Live Activity updates accepted while delivery is down', () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`are delivered after a restart (${signal}), never an older one after a newer`, async () => {
      const label = signal.toLowerCase();
      const device = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'ios', token: apnsToken(`rs-la-${label}`) } });
      expect(device.status, JSON.stringify(device.body)).toBe(201);
      const { id: deviceId, token: deviceToken } = device.body!.data as { id: string; token: string };
      await waitFor('the device projected', async () => (await harness.request('GET', `/api/v1/devices/${deviceId}`, { key: project.api_key })).status === 200);
      const updateToken = apnsToken(`rs-la-upd-${label}`);
      const activity = `rs-act-${label}`;
      const attached = await post(`/api/v1/devices/${deviceId}/live-activity-tokens`, { kind: 'update', token: updateToken, activity_id: activity, device_token: deviceToken });
      expect(attached.status, JSON.stringify(attached.body)).toBe(201);

      const first = await liveActivity({ event: 'update', activity_id: activity, content_state: { eta: 9 } });
      expect((await reported(first.id)).outcomes).toMatchObject([{ device_id: deviceId, outcome: 'delivered' }]);

      let older: LiveActivitySent | undefined;
      let newer: LiveActivitySent | undefined;
      await harness.restartDelivery!(signal, {
        whileDown: async () => {
          older = await liveActivity({ event: 'update', activity_id: activity, content_state: { eta: 5 } });
          newer = await liveActivity({ event: 'update', activity_id: activity, content_state: { eta: 2 } });
          // Accepted, not sent: no delivery process is running.
          expect((await harness.request('GET', `/api/v1/live-activities/${newer.id}`, { key: project.api_key })).body?.data).toMatchObject({ status: 'accepted' });
        },
      });
      expect(newer!.timestamp).toBeGreaterThan(older!.timestamp);
      expect(older!.timestamp).toBeGreaterThan(first.timestamp);

      expect((await reported(newer!.id)).outcomes).toMatchObject([{ device_id: deviceId, outcome: 'delivered' }]);
      // The older update is sent before the newer, or refused as not newer (a device ignores it; the two are
      // keyed by their own ids, so either may be read first), or coalesced into the newer and never sent.
      const olderReport = await reported(older!.id);
      const olderOutcome = olderReport.outcomes[0];
      const olderFate = olderReport.status === 'coalesced' ? { coalesced_into: olderReport.coalesced_into } : { outcome: olderOutcome?.outcome, ...(olderOutcome?.reason === undefined ? {} : { reason: olderOutcome.reason }) };
      expect([{ outcome: 'delivered' }, { outcome: 'failed', reason: 'LiveActivityTimestampNotIncreasing' }, { coalesced_into: newer!.id }]).toContainEqual(olderFate);
      process.stdout.write(`live activity after ${signal}: the older update accepted while down: ${JSON.stringify(olderFate)}\n`);

      // What the token took: each accepted once, in rising timestamps, the newest last.
      const taken = apsTo(updateToken);
      const timestamps = taken.map((aps) => aps.timestamp);
      expect(timestamps).toEqual([...new Set(timestamps)].sort((a, b) => a - b));
      expect(timestamps[0]).toBe(first.timestamp);
      expect(taken.at(-1)).toMatchObject({ timestamp: newer!.timestamp, 'content-state': { eta: 2 } });
    }, 300_000);
  }
});

async function createWebhook(path: string): Promise<string> {
  const created = await post('/api/v1/webhooks', { url: `${receiverUrl}${path}`, event_types: ['NotificationRequested'], batch: { max_events: 10, max_wait_ms: 100 } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (created.body!.data as { id: string }).id;
}

/** A one-device send, whose NotificationRequested the webhooks receive: its notification id. */
async function requested(): Promise<string> {
  const response = await post('/api/v1/notifications', { notification: { title: 'Hi', body: 'there', targets: [{ device_id: androidId }] } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body!.data as { id: string }).id;
}

/** The notification ids of the events `path` received, one entry per time received. */
const receivedBy = (path: string) => (received.get(path) ?? []).map((event) => event.notificationId);

describe('a paused webhook through restarts of the webhooks process', () => {
  it('stays paused through a kill -9 and a SIGTERM, and resumed, posts what it missed once per event', async () => {
    const pausedId = await createWebhook('/paused');
    await createWebhook('/witness');
    const sends = [await requested()];
    await waitFor('both webhooks received the first event', () => receivedBy('/paused').length === 1 && receivedBy('/witness').length >= 1, 60_000);

    const paused = await harness.request('PATCH', `/api/v1/webhooks/${pausedId}`, { key: project.api_key, body: { paused: true } });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    await waitFor('the dispatcher stopped the paused webhook', () => harness.outputs().webhooks?.includes('webhook paused: stopped'), 60_000);

    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      sends.push(await requested());
      await harness.restartWebhooks!(signal, { whileDown: async () => void sends.push(await requested()) });
      sends.push(await requested());
      // The witness received every event so far: the restarted process has read past them, and posted none to the paused one.
      await waitFor(`the witness caught up after ${signal}`, () => new Set(receivedBy('/witness')).size === sends.length, 90_000).catch((error: unknown) => {
        process.stderr.write(outputTails(harness, 60));
        throw error;
      });
      expect(receivedBy('/paused')).toHaveLength(1);
      const shown = (await harness.request('GET', `/api/v1/webhooks/${pausedId}`, { key: project.api_key })).body?.data as { paused: boolean; position: unknown };
      expect(shown).toMatchObject({ paused: true });
      expect(shown.position).not.toBeNull();
    }

    const resumed = await harness.request('PATCH', `/api/v1/webhooks/${pausedId}`, { key: project.api_key, body: { paused: false } });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    sends.push(await requested());
    await waitFor('the resumed webhook received what it missed and the live one', () => new Set(receivedBy('/paused')).size === sends.length, 90_000);
    await waitFor('the witness received the live one', () => new Set(receivedBy('/witness')).size === sends.length, 60_000);
    // Once per event: each send's event exactly once (the witness, running through its own kill -9, may repeat one).
    expect([...receivedBy('/paused')].sort()).toEqual([...sends].sort());
    const events = received.get('/paused')!.map((event) => event.id);
    expect(new Set(events).size).toBe(events.length);
  }, 400_000);
});
