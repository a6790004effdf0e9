import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicesPerPlatform, seedTopicAudience, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';
import { SENDER_PARTITIONS_AT_ONCE } from './sender/start-senders.ts';

/**
 * Kill -9 the delivery process in the middle of a campaign, start it again,
 * and count what the fake providers received: every device at least once,
 * and repeats only from the batches that were in flight at the kill.
 */
const DEVICES_PER_PLATFORM = 2_000;
const BATCH = 500;
/** DELIVERY_CONCURRENCY below: batches being sent at once per sender lane. */
const IN_FLIGHT_PER_PROVIDER = 1;
/**
 * What a kill can leave sent and not committed, per provider: each of the
 * lane's partitions handled at once may hold a sent chunk awaiting its commit
 * (sender/start-senders.ts, SENDER_PARTITIONS_AT_ONCE). The campaign here is small
 * per partition (about 667 devices), so it takes one lane, the express one.
 */
const UNCOMMITTED_BATCHES_PER_PROVIDER = IN_FLIGHT_PER_PROVIDER * SENDER_PARTITIONS_AT_ONCE;

let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('crash', { delivery: true, deliveryEnv: { DELIVERY_CONCURRENCY: String(IN_FLIGHT_PER_PROVIDER) } });
  project = await harness.createProject('crash');
  await harness.fakes!.configure(project.id);
  await seedTopicAudience(harness, project, devicesPerPlatform(DEVICES_PER_PLATFORM));
}, 240_000);

afterAll(async () => {
  await harness?.stop();
});

describe('delivery crash and restart', () => {
  it('loses no device and repeats at most the batches in flight', async () => {
    const { apns, fcm } = harness.fakes!;
    // Slow providers so the campaign is still running when the process dies.
    apns.setLatency(150);
    fcm.setLatency(150);
    const total = 2 * DEVICES_PER_PLATFORM;
    const sent = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Sale', body: 'Now', targets: ['crowd'] } } });
    expect(sent.status).toBe(201);
    const id = (sent.body!.data as { id: string }).id;

    await waitFor('a quarter of the campaign delivered', () => apns.stats.delivered + fcm.stats.delivered >= total / 4, 60_000);
    await harness.restartDelivery!('SIGKILL');
    const atKill = apns.stats.delivered + fcm.stats.delivered;
    apns.setLatency(0);
    fcm.setLatency(0);

    await waitFor('the notification completed after the restart', async () => {
      const data = (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string } | undefined;
      return data?.status === 'sent';
    }, 120_000);

    const tokens = [...apns.deliveries.map((d) => d.token), ...fcm.deliveries.map((d) => d.token)];
    const distinct = new Set(tokens);
    const repeats = tokens.length - distinct.size;
    expect(distinct.size).toBe(total);
    expect(repeats).toBeLessThanOrEqual(2 * UNCOMMITTED_BATCHES_PER_PROVIDER * BATCH);
    const counts = ((await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body!.data as { counts: Record<string, number> }).counts;
    expect(counts).toMatchObject({ targeted: total, sent: total, delivered: total, failed: 0 });
    // Figures for the record (see the closing note).
    process.stdout.write(`crash test: ${total} devices, ${atKill} delivered before the kill, ${tokens.length} pushes in all, ${repeats} repeated\n`);
    // Bounds for liveness on a slow machine, not a speed check: its waits above add up to 180 s.
  }, 240_000);
});
