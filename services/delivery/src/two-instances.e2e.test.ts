import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryDeadLetters, devicesPerPlatform, seedTopicAudience, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * Two delivery instances share a campaign: a second process joins mid-send
 * (every delivery group rebalances), then the first is killed with -9 and
 * started again. Every device is delivered, repeats stay within the batches
 * in flight, nothing is dead-lettered, counts equal what was reported.
 */
const DEVICES_PER_PLATFORM = 1_500;
const BATCH = 500;
const IN_FLIGHT_PER_PROVIDER = 1;
/** The join (chunks abandoned at the rebalance) and the kill. */
const FAULTS = 2;

let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('two-instances', { delivery: true, deliveryEnv: { DELIVERY_CONCURRENCY: String(IN_FLIGHT_PER_PROVIDER) } });
  project = await harness.createProject('pair');
  await harness.fakes!.configure(project.id);
  await seedTopicAudience(harness, project, devicesPerPlatform(DEVICES_PER_PLATFORM));
}, 240_000);

afterAll(async () => {
  await harness?.stop();
}, 60_000);

describe('two delivery instances', () => {
  it('survive a join and a kill -9 mid-campaign without loss or dead letters', async () => {
    const { apns, fcm } = harness.fakes!;
    apns.setLatency(150);
    fcm.setLatency(150);
    const total = 2 * DEVICES_PER_PLATFORM;
    const delivered = () => apns.stats.delivered + fcm.stats.delivered;
    const sent = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Sale', body: 'Now', targets: ['crowd'] } } });
    expect(sent.status).toBe(201);
    const id = (sent.body!.data as { id: string }).id;

    await waitFor('a sixth of the campaign delivered', () => delivered() >= total / 6, 60_000);
    await harness.addDelivery!();
    const afterJoin = delivered();
    await waitFor('more delivered after the join', () => delivered() >= Math.min(total, afterJoin + total / 6), 120_000);
    await harness.restartDelivery!('SIGKILL');
    apns.setLatency(0);
    fcm.setLatency(0);

    const done = await waitFor('the notification completed', async () => {
      const data = (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string; counts: Record<string, number> } | undefined;
      return data?.status === 'sent' ? data : undefined;
    }, 180_000);

    const tokens = [...apns.deliveries.map((d) => d.token), ...fcm.deliveries.map((d) => d.token)];
    const distinct = new Set(tokens);
    expect(distinct.size).toBe(total);
    expect(tokens.length - distinct.size).toBeLessThanOrEqual(FAULTS * 2 * IN_FLIGHT_PER_PROVIDER * BATCH);
    expect(done.counts).toMatchObject({ targeted: total, sent: total, delivered: total, failed: 0 });
    const deadLetters = await deliveryDeadLetters(harness.env.kafka);
    expect(Object.values(deadLetters).every((count) => count === 0), `dead letters ${JSON.stringify(deadLetters)}`).toBe(true);
    process.stdout.write(`two instances test: ${total} devices, ${tokens.length} pushes, ${tokens.length - distinct.size} repeated\n`);
  }, 400_000);
});
