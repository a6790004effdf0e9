import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, newId } from '@herald/events';
import { ADMIN_COLLECTIONS } from '@herald/mongo';
import { createTestClock, createTopics, type TestClock, startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * Scheduled sends over the real stack: held in the store through a restart of
 * every process, fired on time, cancelled before their time, and local-time
 * sends reaching each device at 09:00 in its own zone. The clock the API and
 * delivery use for schedules is moved through HERALD_CLOCK_FILE.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
let clock: TestClock;

const moveClockTo = (instant: number) => clock.moveTo(instant);
const send = async (notification: Record<string, unknown>) => {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Later', body: 'x', ...notification } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body!.data as { id: string; status: string };
};
const status = async (id: string) => ((await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string } | undefined)?.status;
const schedules = () => harness.env.driverDb.collection<{ _id: string; notification_id: string; state: string; due_at: Date }>(ADMIN_COLLECTIONS.deliverySchedules);
const arrivals = (id: string) => harness.fakes!.apns.deliveries.filter((delivery) => (delivery.payload as { notification_id: string }).notification_id === id);

beforeAll(async () => {
  clock = await createTestClock();
  const clockEnv = clock.env;
  harness = await startApiHarness('schedule', { delivery: true, apiEnv: clockEnv, deliveryEnv: { ...clockEnv, DELIVERY_SCHEDULER_POLL_MS: '100', DELIVERY_SCHEDULER_IDLE_MS: '100' } });
  project = await harness.createProject('schedule');
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, ['world']);
  for (const [token, timezone] of [[apnsToken('ios-paris'), 'Europe/Paris'], [apnsToken('ios-tokyo'), 'Asia/Tokyo'], [apnsToken('ios-unzoned'), undefined]] as const) {
    const registered = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform: 'ios', topics: ['world'], ...(timezone === undefined ? {} : { timezone }) } });
    expect(registered.status).toBe(201);
  }
  await waitFor('three devices projected', async () => ((await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key })).body?.pagination as { count: number } | undefined)?.count === 3);
}, 180_000);

afterAll(async () => {
  await harness?.stop();
  await clock?.remove();
});

describe('scheduled sends', () => {
  it('survive a restart of every process and fire on time', async () => {
    await moveClockTo(Date.now());
    const sendAt = Date.now() + 25_000;
    const accepted = await send({ targets: [apnsToken('ios-paris')], send_at: new Date(sendAt).toISOString() });
    expect(accepted.status).toBe('scheduled');
    await waitFor('the schedule stored', async () => (await schedules().findOne({ notification_id: accepted.id })) !== null);
    await waitFor('the notification listed as scheduled', async () => (await status(accepted.id)) === 'scheduled');

    // Every process stops and starts again (a deploy); the schedule lives only in the store and the log.
    await harness.restartAll('SIGTERM');

    const [first] = await waitFor('the scheduled push at the provider', () => (arrivals(accepted.id).length > 0 ? arrivals(accepted.id) : undefined), 60_000);
    // Not before its time, and promptly after (the scheduler polls every 100 ms here; the bound is loose for busy CI machines).
    const lateness = first!.receivedAt - sendAt;
    process.stderr.write(`scheduled send: first push ${lateness} ms after send_at\n`);
    expect(lateness).toBeGreaterThanOrEqual(0);
    expect(lateness).toBeLessThan(3_000);
    await waitFor('the notification sent', async () => (await status(accepted.id)) === 'sent');
    expect(arrivals(accepted.id)).toHaveLength(1);
  }, 180_000);

  it('is never sent once cancelled before its time', async () => {
    await moveClockTo(Date.now());
    const accepted = await send({ targets: [apnsToken('ios-paris')], send_at: new Date(Date.now() + 3_600_000).toISOString() });
    await waitFor('the schedule stored', async () => (await schedules().findOne({ notification_id: accepted.id })) !== null);
    await waitFor('the notification listed as scheduled', async () => (await status(accepted.id)) === 'scheduled');
    expect((await harness.request('POST', `/api/v1/notifications/${accepted.id}/cancel`, { key: project.api_key })).status).toBe(202);
    await waitFor('the notification cancelled', async () => (await status(accepted.id)) === 'cancelled');

    await moveClockTo(Date.now() + 7_200_000);
    await waitFor('the schedule dropped at its time', async () => (await schedules().findOne({ notification_id: accepted.id }))?.state === 'cancelled', 30_000);
    expect(arrivals(accepted.id)).toEqual([]);
  });

  it('sends a local-time notification to each device at 09:00 in its own zone', async () => {
    await moveClockTo(Date.now());
    const day = DateTime.utc().plus({ days: 2 }).toISODate();
    const local = `${day}T09:00`;
    const tokyo = DateTime.fromISO(local, { zone: 'Asia/Tokyo' }).toMillis();
    const paris = DateTime.fromISO(local, { zone: 'Europe/Paris' }).toMillis();
    const utc = DateTime.fromISO(local, { zone: 'UTC' }).toMillis();
    const accepted = await send({ targets: ['world'], send_at_local: local });
    expect(accepted.status).toBe('scheduled');
    await waitFor('the slots stored', async () => (await schedules().countDocuments({ notification_id: accepted.id })) > 2);
    const tokens = () => arrivals(accepted.id).map((delivery) => delivery.token);

    // Tokyo's 09:00 comes first: only the Tokyo device gets it.
    await moveClockTo(tokyo);
    await waitFor('the Tokyo device reached', () => tokens().includes(apnsToken('ios-tokyo')), 30_000);
    await waitFor('the Tokyo slot fired', async () => (await schedules().findOne({ notification_id: accepted.id, due_at: new Date(tokyo) }))?.state === 'fired');
    expect(tokens()).toEqual([apnsToken('ios-tokyo')]);
    expect((await schedules().findOne({ notification_id: accepted.id, due_at: new Date(paris) }))?.state).toBe('pending');
    await waitFor('the notification shown sending', async () => (await status(accepted.id)) === 'sending');

    // Paris's 09:00, then UTC's (the project's default zone, for the device without one).
    await moveClockTo(paris);
    await waitFor('the Paris device reached', () => tokens().includes(apnsToken('ios-paris')), 30_000);
    expect(tokens().sort()).toEqual([apnsToken('ios-paris'), apnsToken('ios-tokyo')]);
    await moveClockTo(utc);
    await waitFor('the unzoned device reached at UTC 09:00', () => tokens().includes(apnsToken('ios-unzoned')), 30_000);

    // Once every zone's 09:00 has passed, every slot is dispatched and the notification is sent.
    await moveClockTo(utc + 86_400_000);
    await waitFor('the notification sent', async () => (await status(accepted.id)) === 'sent', 60_000);
    expect(tokens().sort()).toEqual([apnsToken('ios-paris'), apnsToken('ios-tokyo'), apnsToken('ios-unzoned')]);
  }, 180_000);

  it('expires a send whose time passed longer ago than DELIVERY_MAX_AGE_MS (delivery was down): nothing is sent', async () => {
    // As if the request had waited in the log for two days.
    const old = createEvent('NotificationRequested', { notification_id: newId(), title: 'Stale', body: 'x', targets: [apnsToken('ios-paris')] }, { project_id: project.id, now: new Date(Date.now() - 2 * 86_400_000) });
    await harness.env.producer.publish([old]);
    await waitFor('the notification expired', async () => (await status(old.data.notification_id)) === 'expired', 30_000);
    const data = (await harness.request('GET', `/api/v1/notifications/${old.data.notification_id}`, { key: project.api_key })).body!.data as { counts: { targeted: number }; finished_at: string | null };
    expect(data.counts.targeted).toBe(0);
    expect(data.finished_at).not.toBeNull();
    expect(arrivals(old.data.notification_id)).toEqual([]);
  });

  it('refuses a send_at more than 30 days ahead or in the past, naming the field', async () => {
    await moveClockTo(Date.now());
    const far = await harness.request('POST', '/api/v1/notifications', {
      key: project.api_key,
      body: { notification: { title: 't', body: 'b', targets: ['world'], send_at: new Date(Date.now() + 31 * 86_400_000).toISOString() } },
    });
    expect(far).toEqual({ status: 422, body: { errors: ['notification.send_at must be at most 30 days ahead'] } });
    const past = await harness.request('POST', '/api/v1/notifications', {
      key: project.api_key,
      body: { notification: { title: 't', body: 'b', targets: ['world'], send_at: new Date(Date.now() - 3_600_000).toISOString() } },
    });
    expect(past).toEqual({ status: 422, body: { errors: ['notification.send_at is in the past'] } });
    const both = await harness.request('POST', '/api/v1/notifications', {
      key: project.api_key,
      body: { notification: { title: 't', body: 'b', targets: ['world'], send_at: new Date(Date.now() + 60_000).toISOString(), send_at_local: '2030-01-01T09:00' } },
    });
    expect(both.status).toBe(422);
    expect((both.body as { errors: string[] }).errors).toContain('notification.send_at and notification.send_at_local cannot both be set');
  });
});
