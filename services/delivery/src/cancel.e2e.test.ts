import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, topicIdFor, type HeraldEvent } from '@herald/events';
import { deliveryDeadLetters, startApiHarness, waitFor, waitForReceiptsCaughtUp, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * A cancel mid-campaign: batches already with the provider finish, the rest
 * are not sent and their devices are reported cancelled; repeating the cancel
 * is harmless, and a notification that was sent cannot be cancelled.
 */
const DEVICES = 2_000;

let harness: ApiHarness;
let project: { id: string; api_key: string };

type Counts = Record<'targeted' | 'sent' | 'delivered' | 'failed' | 'invalid' | 'cancelled', number>;
const notification = async (id: string) => (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string; counts: Counts; finished_at: string | null } | undefined;
const cancel = (id: string) => harness.request('POST', `/api/v1/notifications/${id}/cancel`, { key: project.api_key });
const send = async (targets: string[]) => {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Sale', body: 'Now', targets } } });
  expect(response.status).toBe(201);
  return (response.body!.data as { id: string }).id;
};

beforeAll(async () => {
  // One batch at a time, each taking seconds: a cancel lands while most batches wait.
  harness = await startApiHarness('cancel', { delivery: true, deliveryEnv: { DELIVERY_CONCURRENCY: '1', APNS_MAX_IN_FLIGHT: '10' } });
  project = await harness.createProject('cancel');
  await harness.fakes!.configure(project.id);
  harness.fakes!.apns.setLatency(40);
  const topicId = topicIdFor(project.id, 'crowd');
  const context = { project_id: project.id };
  const events: HeraldEvent[] = [createEvent('TopicCreated', { topic_id: topicId, name: 'crowd' }, context)];
  for (let i = 0; i < DEVICES; i += 1) {
    const token = apnsToken(`ios-${i}`);
    events.push(createEvent('DeviceRegistered', { device_id: deviceIdFor(project.id, token), token, platform: 'ios', topic_ids: [topicId] }, context));
  }
  for (let i = 0; i < events.length; i += 1000) await harness.env.producer.publish(events.slice(i, i + 1000));
  await waitFor('all devices projected', async () => {
    const response = await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key });
    return (response.body?.pagination as { count: number } | undefined)?.count === DEVICES;
  }, 120_000);
}, 240_000);

afterAll(async () => {
  await harness?.stop();
});

describe('cancel', () => {
  it('stops the rest of a campaign: unsent batches are reported cancelled, nothing more is sent', async () => {
    const { apns } = harness.fakes!;
    const id = await send(['crowd']);
    await apns.waitForDeliveries(1, 60_000);

    const cancelled = await cancel(id);
    expect(cancelled.status).toBe(202);
    expect(cancelled.body).toMatchObject({ data: { id, status: 'cancelled' } });
    expect((await cancel(id)).status).toBe(202);

    const done = await waitFor('every device delivered or cancelled', async () => {
      const data = await notification(id);
      return data !== undefined && data.counts.delivered + data.counts.cancelled === DEVICES ? data : undefined;
    }, 120_000);
    expect(done.status).toBe('cancelled');
    expect(done.finished_at).not.toBeNull();
    expect(done.counts).toMatchObject({ targeted: DEVICES, failed: 0, invalid: 0 });
    // At least the batches waiting behind the one in flight were not sent.
    expect(done.counts.cancelled).toBeGreaterThanOrEqual(500);
    // What the provider got is exactly what is reported delivered.
    expect(new Set(apns.deliveries.map((delivery) => delivery.token)).size).toBe(done.counts.delivered);
    await waitForReceiptsCaughtUp(harness.env.kafka);
    const receipts = (await harness.request('GET', `/api/v1/notifications/${id}/receipts?outcome=cancelled&limit=1`, { key: project.api_key })).body as {
      data: Array<{ outcome: string; reason: string | null }>;
      pagination: { count: number };
    };
    expect(receipts.pagination.count).toBe(done.counts.cancelled);
    expect(receipts.data[0]).toMatchObject({ outcome: 'cancelled', reason: null });

    // Still harmless once it has finished cancelled.
    expect((await cancel(id)).status).toBe(202);
    const deadLetters = await deliveryDeadLetters(harness.env.kafka, ['apns', 'fanout', 'fanoutPartitions']);
    expect(Object.values(deadLetters).every((count) => count === 0), `dead letters ${JSON.stringify(deadLetters)}`).toBe(true);
  }, 240_000);

  it('refuses to cancel a notification that was sent (409) or that does not exist (404)', async () => {
    harness.fakes!.apns.setLatency(0);
    const id = await send([apnsToken('ios-1')]);
    await waitFor('the notification sent', async () => ((await notification(id))?.status === 'sent' ? true : undefined), 60_000);
    const refused = await cancel(id);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ errors: [expect.stringContaining('already finished (status sent)')] });
    expect((await cancel('0199a1c2-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await harness.request('POST', `/api/v1/notifications/${id}/cancel`)).status).toBe(401);
  });
});
