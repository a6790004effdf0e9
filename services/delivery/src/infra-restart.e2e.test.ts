import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryDeadLetters, devicesPerPlatform, seedTopicAudience, startApiHarness, startPrivateInfra, waitFor, type ApiHarness, type PrivateInfra } from '@herald/testing';

/**
 * The broker, then the store, killed and restarted mid-campaign (this file's
 * own Kafka and store, not the shared test infra): every device is delivered,
 * repeats stay within the batches in flight, nothing is dead-lettered, and
 * the counts equal what was reported.
 */
const DEVICES_PER_PLATFORM = 1_000;
const BATCH = 500;
const IN_FLIGHT_PER_PROVIDER = 1;
const FAULTS = 2;

let infra: PrivateInfra;
let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  infra = await startPrivateInfra();
  harness = await startApiHarness('infra-restart', { delivery: true, infra, deliveryEnv: { DELIVERY_CONCURRENCY: String(IN_FLIGHT_PER_PROVIDER) } });
  project = await harness.createProject('faults');
  await harness.fakes!.configure(project.id);
  await seedTopicAudience(harness, project, devicesPerPlatform(DEVICES_PER_PLATFORM));
}, 300_000);

afterAll(async () => {
  await harness?.stop();
  await infra?.stop();
}, 60_000);

/** The notification, or undefined while the API cannot answer (its store or broker is down). */
async function notification(id: string) {
  try {
    return (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string; counts: Record<string, number> } | undefined;
  } catch {
    return undefined;
  }
}

describe('broker and store restarts mid-campaign', () => {
  it('delivers every device, dead-letters nothing, counts match', async () => {
    const { apns, fcm } = harness.fakes!;
    apns.setLatency(100);
    fcm.setLatency(100);
    const total = 2 * DEVICES_PER_PLATFORM;
    const delivered = () => apns.stats.delivered + fcm.stats.delivered;
    const sent = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Sale', body: 'Now', targets: ['crowd'] } } });
    expect(sent.status).toBe(201);
    const id = (sent.body!.data as { id: string }).id;

    await waitFor('a fifth of the campaign delivered', () => delivered() >= total / 5, 60_000);
    await infra.restartBroker();
    const afterBroker = delivered();
    await waitFor('more delivered after the broker restart', () => delivered() >= Math.min(total, afterBroker + total / 5), 120_000);
    await infra.restartStore();
    apns.setLatency(0);
    fcm.setLatency(0);

    const done = await waitFor('the notification completed after the restarts', async () => {
      const data = await notification(id);
      return data?.status === 'sent' ? data : undefined;
    }, 180_000);

    const tokens = [...apns.deliveries.map((d) => d.token), ...fcm.deliveries.map((d) => d.token)];
    const distinct = new Set(tokens);
    expect(distinct.size).toBe(total);
    expect(tokens.length - distinct.size).toBeLessThanOrEqual(FAULTS * 2 * IN_FLIGHT_PER_PROVIDER * BATCH);
    expect(done.counts).toMatchObject({ targeted: total, sent: total, delivered: total, failed: 0 });
    const deadLetters = await deliveryDeadLetters(harness.env.kafka);
    expect(Object.values(deadLetters).every((count) => count === 0), `dead letters ${JSON.stringify(deadLetters)}`).toBe(true);
    process.stdout.write(`infra restart test: ${total} devices, ${tokens.length} pushes, ${tokens.length - distinct.size} repeated\n`);
  }, 400_000);
});
