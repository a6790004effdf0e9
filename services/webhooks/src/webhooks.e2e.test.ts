import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOPICS } from '@herald/events';
import { readLogToEnd } from '@herald/kafka';
import { devicesPerPlatform, seedTopicAudience, startApiHarness, waitFor, waitForReceiptsCaughtUp, type ApiHarness } from '@herald/testing';

/**
 * Webhooks over the real stack (API, projector, delivery with its webhooks
 * role, Kafka, the store), the receiver a loopback HTTP server: a 1,000-device
 * campaign (its requests, dispatch, reports and 1,000 opens) reaches the
 * receiver once per event id although it answers 503 for 30 s after its first
 * request, every request verifies with the documented recipe, a notification's
 * events arrive in log order, and a replay from the campaign's start delivers
 * exactly the campaign's events again.
 */
const OUTAGE_MS = 30_000;

interface Received {
  phase: 'live' | 'replay';
  id: string;
  type: string;
  notificationId: string | undefined;
}

/** The receiver's check, as docs/webhooks.md gives it. */
function verified(secret: string, timestamp: string, signatures: string, body: string): boolean {
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
  return fresh && signatures.split(',').some((entry) => {
    const [scheme, hex] = entry.trim().split('=');
    return scheme === 'v1' && hex !== undefined && hex.length === 64 && timingSafeEqual(Buffer.from(hex, 'hex'), expected);
  });
}

let harness: ApiHarness;
let receiver: Server;
let receiverUrl: string;
let secret = '';
let phase: Received['phase'] = 'live';
let downUntil: number | undefined;
const received: Received[] = [];
const requests = { accepted: 0, refused: 0, badSignatures: 0 };

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      // Down for OUTAGE_MS from the first request on: the endpoint's outage, on its own clock.
      downUntil ??= Date.now() + OUTAGE_MS;
      if (requests.accepted > 0 && Date.now() < downUntil) {
        requests.refused += 1;
        response.writeHead(503).end();
        return;
      }
      const headers = request.headers as Record<string, string>;
      if (!verified(secret, headers['herald-timestamp'] ?? '', headers['herald-signature'] ?? '', body)) requests.badSignatures += 1;
      requests.accepted += 1;
      const { events } = JSON.parse(body) as { events: { id: string; type: string; data: { notification_id?: string } }[] };
      for (const event of events) received.push({ phase, id: event.id, type: event.type, notificationId: event.data.notification_id });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/herald`;
  harness = await startApiHarness('webhooks', {
    delivery: true,
    apiEnv: { WEBHOOKS_LOCAL: 'on' },
    webhooks: true,
    webhooksEnv: { WEBHOOKS_LOCAL: 'on', WEBHOOK_REFRESH_MS: '250', WEBHOOK_RETRY_MIN_MS: '200', WEBHOOK_RETRY_MAX_MS: '2000' },
  });
}, 180_000);

afterAll(async () => {
  await harness?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhooks', () => {
  it('delivers every event of a 1,000-device campaign once per id through a 30 s outage, signed, in order; a replay repeats exactly them', async () => {
    const project = await harness.createProject('webhooks');
    await harness.fakes!.configure(project.id);
    const devices = devicesPerPlatform(500);
    await seedTopicAudience(harness, project, devices);

    const created = await harness.request('POST', '/api/v1/webhooks', { key: project.api_key, body: { url: receiverUrl, batch: { max_events: 50, max_wait_ms: 200 } } });
    expect(created.status).toBe(201);
    secret = created.body!.secret as string;
    const webhookId = (created.body!.data as { id: string }).id;
    const webhook = async () => (await harness.request('GET', `/api/v1/webhooks/${webhookId}`, { key: project.api_key })).body!.data as {
      position: unknown;
      status: { lag: number; delivered_events: number; failed_attempts: number; last_failure: { error: string } | null };
    };
    await waitFor('the webhook started (position recorded)', async () => (await webhook()).position !== null, 30_000);

    const campaignStart = new Date();
    const sent = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Hi', body: 'all', targets: [{ topic: 'crowd' }] } } });
    expect(sent.status).toBe(201);
    const notificationId = (sent.body!.data as { id: string }).id;
    await waitFor('the receiver went down after its first request', () => requests.refused > 0, 60_000);
    await waitFor('the campaign reported all 1,000 devices', async () => {
      const status = (await harness.request('GET', `/api/v1/notifications/${notificationId}`, { key: project.api_key })).body!.data as { counts: { delivered: number } };
      return status.counts.delivered === 1_000;
    }, 120_000);
    // Opens while the receiver is down. An open is accepted from a device the ledger shows delivered: the ledger,
    // a projection of its own, may trail the counts, so it catches up first.
    await waitForReceiptsCaughtUp(harness.env.kafka);
    for (let i = 0; i < devices.length; i += 100) {
      const statuses = await Promise.all(devices.slice(i, i + 100).map(async ({ token }) => (await harness.request('PUT', `/api/v1/notifications/${notificationId}/open`, { body: { project_id: project.id, token } })).status));
      expect(new Set(statuses)).toEqual(new Set([204]));
    }

    // What the log holds for this project: the campaign's events of the webhook's types.
    const expectedRecords = async () =>
      (await readLogToEnd(harness.env.kafka, [TOPICS.notificationEvents])).filter((record) => record.event?.project_id === project.id);
    await waitFor('1,000 opens in the log', async () => (await expectedRecords()).filter((record) => record.event?.type === 'NotificationOpened').length === 1_000, 60_000);
    const expected = (await expectedRecords()).filter((record) => ['NotificationRequested', 'NotificationDispatched', 'DeliveryReported', 'NotificationOpened'].includes(record.event!.type));
    const expectedIds = new Set(expected.map((record) => record.event!.id));
    const byType = (type: string) => expected.filter((record) => record.event!.type === type);
    expect([byType('NotificationRequested').length, byType('NotificationOpened').length]).toEqual([1, 1_000]);
    // One per device-events partition the fan-out dispatched it on.
    expect(byType('NotificationDispatched').length).toBeGreaterThanOrEqual(1);
    expect(byType('DeliveryReported').reduce((sum, record) => sum + (record.event!.data as { results: unknown[] }).results.length, 0), 'reports cover the 1,000 devices').toBe(1_000);
    expect(expectedIds.size).toBe(expected.length);

    await waitFor('every campaign event received', () => expectedIds.size === new Set(received.filter((item) => item.phase === 'live').map((item) => item.id)).size, 120_000);
    const live = received.filter((item) => item.phase === 'live');
    expect(new Set(live.map((item) => item.id)), 'exactly the campaign events').toEqual(expectedIds);
    expect(Date.now(), 'the outage lasted its 30 s').toBeGreaterThanOrEqual(downUntil!);
    expect(requests.refused, 'requests were refused during the outage and retried').toBeGreaterThan(1);
    expect(requests.badSignatures, 'every request verifies').toBe(0);
    // In log order per notification: the first arrival of each event follows the log.
    const firstArrival = [...new Map(live.map((item) => [item.id, item])).keys()];
    expect(firstArrival.filter((id) => expectedIds.has(id))).toEqual(expected.map((record) => record.event!.id));

    const status = await waitFor('lag back to 0 after the outage', async () => {
      const current = await webhook();
      return current.status.lag === 0 && current.status.delivered_events >= expectedIds.size ? current : undefined;
    }, 30_000);
    expect(status.status.failed_attempts).toBeGreaterThan(0);
    expect(status.status.last_failure?.error).toBe('answered 503');
    const metric = (name: string) => new RegExp(`${name}\\{[^}]*webhook_id="${webhookId}"[^}]*\\} ([0-9.e+]+)`);
    const metrics = await waitFor('the lag metric at 0', async () => {
      const text = await (await fetch(harness.metricsUrls.webhooks!)).text();
      return metric('herald_webhook_lag').exec(text)?.[1] === '0' ? text : undefined;
    }, 30_000);
    expect(Number(metric('herald_webhook_failed_attempts_total').exec(metrics)?.[1])).toBe(status.status.failed_attempts);
    expect(Number(metric('herald_webhook_events_delivered_total').exec(metrics)?.[1])).toBeGreaterThanOrEqual(expectedIds.size);

    phase = 'replay';
    const replay = await harness.request('POST', `/api/v1/webhooks/${webhookId}/replay`, { key: project.api_key, body: { from: campaignStart.toISOString() } });
    expect(replay.status).toBe(202);
    await waitFor('the replay delivered the campaign again', () => new Set(received.filter((item) => item.phase === 'replay').map((item) => item.id)).size >= expectedIds.size, 120_000);
    // Anything more would arrive with the replay's own batches: wait for the webhook to be caught up again, then compare.
    await waitFor('the replay caught up', async () => (await webhook()).status.lag === 0, 30_000);
    expect(new Set(received.filter((item) => item.phase === 'replay').map((item) => item.id)), 'the replay is exactly the campaign').toEqual(expectedIds);
    expect(requests.badSignatures).toBe(0);
  }, 400_000);
});
