import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEvent, type HeraldEvent } from '@herald/events';
import { ensureTopics } from '@herald/kafka';
import { EMPTY_WEBHOOK_STATUS, WebhookStore, type WebhookDocument } from '@herald/admin';
import { createMetrics } from '@herald/metrics';
import { createTestEnv, waitFor, type TestEnv } from '@herald/testing';
import { runWebhooks, type RunningWebhooks } from './run-webhooks.ts';
import { verifySignature } from './signature.ts';

/**
 * The webhooks service's loop in this process against the real Kafka and store, the
 * receivers on loopback: batching by count, a project's events only, an
 * endpoint that never answers 2xx dead-lettered after the configured time
 * while the webhook goes on, a restart resuming from the stored position
 * (nothing lost), and a deleted webhook stopping with its metric series.
 */
let env: TestEnv;
let server: Server;
let base: string;
let store: WebhookStore;
const bodies = new Map<string, Array<{ deliveryId: string; events: HeraldEvent[]; raw: string; timestamp: string; signature: string }>>();

const start = (metrics = createMetrics('delivery')): Promise<RunningWebhooks> =>
  runWebhooks({
    kafka: env.kafka,
    db: env.mongo.db,
    logger: env.logger,
    metrics,
    policy: { minMs: 50, maxMs: 200, deadLetterAfterMs: 1_000 },
    outbound: { allowLoopback: true, timeoutMs: 2_000, maxResponseBytes: 1_024 },
    refreshMs: 100,
  });

const register = async (projectId: string, path: string, batch = { max_events: 1, max_wait_ms: 0 }): Promise<string> => {
  const id = randomUUID();
  const now = new Date();
  const document: WebhookDocument = {
    _id: id,
    project_id: projectId,
    url: `${base}/${path}`,
    event_types: ['NotificationOpened', 'NotificationRequested'],
    notification_id: null,
    batch,
    secrets: [{ value: 'whsec_test', created_at: now }],
    created_at: now,
    updated_at: now,
    generation: 0,
    replay: null,
    position: null,
    status: EMPTY_WEBHOOK_STATUS,
  };
  await store.insert(document);
  await waitFor(`webhook ${path} started`, async () => (await store.get(projectId, id))?.position !== null, 20_000);
  return id;
};

const opens = (projectId: string, notificationId: string, count: number) =>
  Array.from({ length: count }, (_, i) => createEvent('NotificationOpened', { notification_id: notificationId, device_id: `d-${i}` }, { project_id: projectId }));
const receivedIds = (path: string) => (bodies.get(path) ?? []).flatMap((body) => body.events.map((event) => event.id));

beforeAll(async () => {
  env = await createTestEnv('webhooks-role');
  await ensureTopics(env.kafka, { partitions: 2 });
  store = new WebhookStore(env.mongo.db);
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = (request.url ?? '/').slice(1);
      if (path.startsWith('down')) {
        response.writeHead(500).end();
        return;
      }
      const list = bodies.get(path) ?? [];
      const headers = request.headers as Record<string, string>;
      list.push({ deliveryId: headers['herald-delivery-id']!, events: (JSON.parse(body) as { events: HeraldEvent[] }).events, raw: body, timestamp: headers['herald-timestamp']!, signature: headers['herald-signature']! });
      bodies.set(path, list);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await env?.close();
});

describe('the webhooks service', () => {
  it('batches by count, keeps to its project, dead-letters a dead endpoint and goes on, resumes after a restart, stops when deleted', async () => {
    const metrics = createMetrics('delivery');
    let role = await start(metrics);
    const project = randomUUID();
    const batched = await register(project, 'batched', { max_events: 5, max_wait_ms: 60_000 });
    const dead = await register(project, 'down-1');

    const first = opens(project, 'n-1', 10);
    await env.producer.publish([...first, ...opens(randomUUID(), 'n-other', 3)]);
    await waitFor('ten events in two batches of five', () => receivedIds('batched').length === 10, 20_000);
    expect(bodies.get('batched')!.map((body) => body.events.length)).toEqual([5, 5]);
    expect(new Set(receivedIds('batched'))).toEqual(new Set(first.map((event) => event.id)));

    // The dead endpoint: each of its requests dead-lettered after ~1 s of failures, one after the other.
    const letters = await waitFor('the dead endpoint dead-lettered all ten', async () => {
      const found = await store.deadLettersOf(dead);
      return found.length === 10 ? found : undefined;
    }, 60_000);
    expect(new Set(letters.flatMap((letter) => letter.event_ids))).toEqual(new Set(first.map((event) => event.id)));
    expect(letters.every((letter) => letter.attempts > 1 && letter.error === 'answered 500')).toBe(true);
    const deadStatus = (await store.get(project, dead))!.status;
    expect(deadStatus.dead_letters).toBe(10);
    expect(deadStatus.last_failure?.error).toBe('answered 500');

    // Stopped with five waiting in a batch that never filled: they are not lost, the restart delivers them.
    const waiting = opens(project, 'n-2', 3);
    await env.producer.publish(waiting);
    await role.stop();
    // A rotation while it is stopped: the restarted role signs with both secrets.
    await store.update(project, batched, { secrets: [{ value: 'whsec_new', created_at: new Date() }, { value: 'whsec_test', created_at: new Date(), expires_at: new Date(Date.now() + 3_600_000) }] });
    const whileStopped = opens(project, 'n-3', 2);
    await env.producer.publish(whileStopped);
    const metricsAfter = createMetrics('delivery');
    role = await start(metricsAfter);
    await waitFor('the restart delivered what waited and what came while stopped', () => receivedIds('batched').length === 15, 20_000);
    expect(new Set(receivedIds('batched').slice(10))).toEqual(new Set([...waiting, ...whileStopped].map((event) => event.id)));
    const [before, after] = [bodies.get('batched')![0]!, bodies.get('batched')!.at(-1)!];
    const verifies = (request: typeof before, secret: string) => verifySignature({ secret, timestamp: request.timestamp, signature: request.signature, body: request.raw, nowS: Date.now() / 1000 });
    expect([verifies(before, 'whsec_test'), verifies(before, 'whsec_new')]).toEqual([true, false]);
    expect(after.signature.split(', ')).toHaveLength(2);
    expect([verifies(after, 'whsec_test'), verifies(after, 'whsec_new')]).toEqual([true, true]);
    expect(after.deliveryId).toMatch(/^[0-9a-f]{32}$/);

    expect(await metrics.registry.getSingleMetricAsString('herald_webhook_events_delivered_total')).toContain(`webhook_id="${batched}"`);
    await waitFor('the restarted role measured lag', async () => (await metricsAfter.registry.getSingleMetricAsString('herald_webhook_lag')).includes(`webhook_id="${batched}"`), 20_000);

    // Deleted: the role stops it and drops its series.
    await store.delete(project, dead);
    await store.delete(project, batched);
    await waitFor('the deleted webhooks stopped (series gone)', async () => !(await metricsAfter.registry.getSingleMetricAsString('herald_webhook_lag')).includes('webhook_id='), 20_000);
    await role.stop();
  }, 120_000);

  it('a paused webhook posts nothing and keeps its position; resumed, it receives what it missed', async () => {
    const role = await start();
    const project = randomUUID();
    const paused = await register(project, 'paused');
    await register(project, 'witness');

    const before = opens(project, 'n-p1', 2);
    await env.producer.publish(before);
    await waitFor('both received the first events', () => receivedIds('paused').length === 2 && receivedIds('witness').length === 2, 20_000);

    await store.update(project, paused, { paused: true });
    // The role lets go of its lease once it has stopped the reader (saving its position).
    await waitFor('the role stopped the paused webhook', async () => (await store.get(project, paused))?.lease === undefined, 20_000);
    const missed = opens(project, 'n-p2', 3);
    await env.producer.publish(missed);
    await waitFor('the witness received the events sent during the pause', () => receivedIds('witness').length === 5, 20_000);
    // Its reader was closed before these were written: it has only the first two.
    expect(receivedIds('paused')).toEqual(before.map((event) => event.id));

    await store.update(project, paused, { paused: false });
    await waitFor('resumed: it received what it missed', () => receivedIds('paused').length === 5, 20_000);
    expect(receivedIds('paused').slice(2).sort()).toEqual(missed.map((event) => event.id).sort());
    await role.stop();
  }, 120_000);
});
