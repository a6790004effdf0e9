import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTopics, deliveryDeadLetters, outputTails, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';
import { SENDER_PARTITIONS_AT_ONCE } from './sender/start-senders.ts';

/**
 * A Web Push campaign and a Huawei Push Kit campaign, each stopped twice
 * while in flight — `kill -9` of the delivery process at a third of its
 * devices, then Ctrl-C's SIGTERM at two thirds — and started again on the
 * same state: every device receives the push, the kill repeats at most what
 * it left sent and uncommitted, the SIGTERM repeats nothing (a stopping
 * sender commits the chunk it sent), and the notification ends `sent` with
 * counts equal to its devices. The fan-out steps are cut small (10 devices a
 * step, so batches of at most 10) and each sender lane sends one batch at a
 * time, so the bound is tight enough to fail: a restart that sent the
 * campaign again from the start would repeat a third of it or more.
 */
const DEVICES = 240;
const STEP_DEVICES = 10;
const CONCURRENCY = 1;
/** What a kill -9 can leave sent and uncommitted: one chunk (CONCURRENCY batches) per partition a lane handles at once. */
const REPEAT_BOUND = SENDER_PARTITIONS_AT_ONCE * CONCURRENCY * STEP_DEVICES;
/** Per request at the fakes while the campaign runs: slow enough that both stops land mid-campaign. */
const LATENCY_MS = 1_500;

let harness: ApiHarness;
let project: { id: string; api_key: string };
let publicKey: string;
const fakes = () => harness.fakes!;

beforeAll(async () => {
  harness = await startApiHarness('restart-webpush-hms', {
    delivery: true,
    apiEnv: { WEBPUSH_LOCAL: 'on' },
    deliveryEnv: { DELIVERY_FANOUT_STEP_DEVICES: String(STEP_DEVICES), DELIVERY_CONCURRENCY: String(CONCURRENCY) },
  });
  project = await harness.createProject('restart-webpush-hms');
  await fakes().configure(project.id);
  publicKey = (await fakes().vapid.generate(project.id, 'mailto:push@example.com')).keys[0]!.public_key;
  await createTopics(harness, project.api_key, ['rs-web', 'rs-hms']);
}, 240_000);

afterAll(async () => {
  await harness?.stop();
});

/** Registers devices through the API, 20 at a time. */
async function registerAll(bodies: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  for (let at = 0; at < bodies.length; at += 20) {
    await Promise.all(
      bodies.slice(at, at + 20).map(async (body) => {
        const response = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, ...body } });
        expect(response.status, JSON.stringify(response.body)).toBe(201);
      }),
    );
  }
}

async function projected(count: number): Promise<void> {
  await waitFor(`${count} devices projected`, async () => ((await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key })).body?.pagination as { count: number } | undefined)?.count === count, 120_000);
}

type View = { status: string; counts: Record<string, number> };
const view = async (id: string) => (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as View | undefined;

interface Campaign {
  topic: string;
  /** Every device's address at its provider. */
  expected: readonly string[];
  /** The addresses the provider accepted a push of notification `id` for, one entry per push. */
  pushed(id: string): string[];
  setLatency(ms: number): void;
}

/** Sends to the campaign's topic, kill -9 at a third, SIGTERM at two thirds, and checks what the provider received. */
async function sendThroughRestarts(name: string, campaign: Campaign): Promise<void> {
  const total = campaign.expected.length;
  campaign.setLatency(LATENCY_MS);
  const sent = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Sale', body: 'Now', targets: [{ topic: campaign.topic }] } } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  const id = (sent.body!.data as { id: string }).id;
  const stops: Array<{ signal: string; at: number }> = [];
  for (const [signal, share] of [['SIGKILL', 1 / 3], ['SIGTERM', 2 / 3]] as const) {
    await waitFor(`${name}: ${Math.round(share * 100)} % delivered`, () => new Set(campaign.pushed(id)).size >= total * share, 120_000);
    stops.push({ signal, at: campaign.pushed(id).length });
    await harness.restartDelivery!(signal);
  }
  campaign.setLatency(0);
  const done = await waitFor(`${name}: the notification sent`, async () => {
    const data = await view(id);
    return data?.status === 'sent' && data.counts.delivered === total ? data : undefined;
  }, 180_000).catch((error: unknown) => {
    process.stderr.write(outputTails(harness, 80));
    throw error;
  });
  const pushes = campaign.pushed(id);
  const distinct = new Set(pushes);
  const missing = campaign.expected.filter((address) => !distinct.has(address));
  expect(missing).toEqual([]);
  expect(distinct.size).toBe(total);
  const repeats = pushes.length - distinct.size;
  expect(done.counts).toMatchObject({ targeted: total, delivered: total, failed: 0 });
  // The repeats after each stop: a push to an address that had one already, counted in the window of the last stop before it.
  const seen = new Set<string>();
  const repeatedAfter = stops.map(() => 0);
  pushes.forEach((address, index) => {
    const window = stops.findLastIndex((stop) => stop.at <= index);
    if (seen.has(address) && window >= 0) repeatedAfter[window]! += 1;
    seen.add(address);
  });
  const after = stops.map(({ signal, at }, index) => `${signal} at ${at}: ${repeatedAfter[index]} repeated`);
  expect(repeatedAfter, after.join(', ')).toEqual([expect.any(Number), 0]);
  expect(repeats).toBeLessThanOrEqual(REPEAT_BOUND);
  process.stdout.write(`${name}: ${total} devices, ${pushes.length} pushes, ${repeats} repeated (bound ${REPEAT_BOUND}); ${after.join(', ')}\n`);
}

describe('a restart mid-campaign, for the providers added last', () => {
  it('delivers a Web Push campaign to every browser through a kill -9 and a SIGTERM, repeats bounded', async () => {
    const subscriptions = Array.from({ length: DEVICES }, () => fakes().webpush.subscribe({ label: 'rs-', applicationServerKey: publicKey }));
    await registerAll(subscriptions.map((subscription) => ({ platform: 'web', subscription, topics: ['rs-web'] })));
    await projected(DEVICES);
    const webpush = fakes().webpush;
    await sendThroughRestarts('webpush', {
      topic: 'rs-web',
      expected: subscriptions.map((subscription) => subscription.endpoint),
      pushed: (id) => webpush.deliveries.filter((delivery) => (JSON.parse(delivery.plaintext) as { data?: { notification_id?: string } }).data?.notification_id === id).map((delivery) => delivery.endpoint),
      setLatency: (ms) => webpush.setLatency(ms),
    });
  }, 600_000);

  it('delivers an HMS campaign to every Huawei device through a kill -9 and a SIGTERM, repeats bounded', async () => {
    const tokens = Array.from({ length: DEVICES }, () => `rs-${randomBytes(48).toString('base64url')}`);
    await registerAll(tokens.map((token) => ({ platform: 'huawei', token, topics: ['rs-hms'] })));
    await projected(2 * DEVICES);
    const hms = fakes().hms;
    await sendThroughRestarts('hms', {
      topic: 'rs-hms',
      expected: tokens,
      pushed: (id) => hms.deliveries.filter((delivery) => (JSON.parse(delivery.message.data as string) as { notification_id?: string }).notification_id === id).flatMap((delivery) => delivery.tokens),
      setLatency: (ms) => hms.setLatency(ms),
    });
  }, 600_000);

  it('dead-lettered nothing', async () => {
    const dead = await deliveryDeadLetters(harness.env.kafka);
    expect(Object.values(dead).every((count) => count === 0), JSON.stringify(dead)).toBe(true);
  });
});
