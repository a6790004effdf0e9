import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, type HeraldEvent } from '@herald/events';
import type { DeliveryLedgerDocument, NotificationDocument } from '@herald/read-models';
import { createTopics, startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * Audiences come from the delivery index, exactly: a device whose
 * registration was acknowledged before a send is in its audience (no
 * read-model lag race); a token a device took in a refresh reaches it,
 * wherever its events live, and the old token reaches nobody; thousands of
 * one-device sends in flight together are each delivered once, with counts
 * equal to the ledger.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('exactness', { delivery: true });
  project = await harness.createProject('exactness');
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, ['live']);
}, 180_000);
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0, delivery: 0 });
});

async function send(targets: unknown[]): Promise<string> {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Now', body: 'Go', targets } } });
  expect(response.status).toBe(201);
  return (response.body!.data as { id: string }).id;
}

async function sent(id: string): Promise<{ targeted: number; delivered: number }> {
  return waitFor(`notification ${id} sent`, async () => {
    const data = (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string; counts: { targeted: number; delivered: number } } | undefined;
    return data?.status === 'sent' ? data.counts : undefined;
  }, 60_000);
}

const reachedBy = (id: string) => harness.fakes!.apns.deliveries.filter((delivery) => (delivery.payload as { notification_id?: string }).notification_id === id).map((delivery) => delivery.token).sort();

describe('audiences from the index', () => {
  it('always targets a device registered just before the send, by token and by topic', async () => {
    const ids: Array<{ id: string; expected: number; token: string; byToken: string }> = [];
    for (let n = 1; n <= 15; n += 1) {
      const token = apnsToken(`fresh-${n}`);
      expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform: 'ios', topics: ['live'] } })).status).toBe(201);
      // No wait for any read model: the send must see the device because its registration was acknowledged first.
      ids.push({ id: await send([{ topic: 'live' }]), expected: n, token, byToken: await send([{ token }]) });
    }
    for (const { id, expected, token, byToken } of ids) {
      // Every device acknowledged before the send; later ones only if they came before the fan-out took it.
      expect((await sent(id)).targeted, `topic send after ${expected} registrations`).toBeGreaterThanOrEqual(expected);
      expect(await sent(byToken)).toMatchObject({ targeted: 1, delivered: 1 });
      expect(reachedBy(byToken)).toEqual([token]);
    }
  }, 180_000);

  it('reaches a device by the token it took in a refresh, wherever its events live, and nobody by its old token', async () => {
    const holders: Array<{ first: string; second: string }> = [];
    for (let n = 0; n < 6; n += 1) {
      const first = apnsToken(`before-refresh-${n}`);
      const second = apnsToken(`after-refresh-${n}`);
      const registered = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token: first, platform: 'ios' } });
      expect(registered.status).toBe(201);
      const deviceId = (registered.body!.data as { id: string }).id;
      expect(deviceId).toBe(deviceIdFor(project.id, first));
      // A refresh names the device, which the API finds in the devices read model.
      await waitFor(`device ${deviceId} readable`, async () => (await harness.request('GET', `/api/v1/devices/${deviceId}`, { key: project.api_key })).status === 200);
      const refreshed = await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, device_id: deviceId, token: second, previous_token: first, platform: 'ios' } });
      expect(refreshed.status).toBe(201);
      holders.push({ first, second });
    }
    for (const { first, second } of holders) {
      const byNew = await send([{ token: second }]);
      const byPlain = await send([second]);
      const byOld = await send([{ token: first }]);
      expect(await sent(byNew)).toMatchObject({ targeted: 1, delivered: 1 });
      expect(reachedBy(byNew)).toEqual([second]);
      expect(await sent(byPlain)).toMatchObject({ targeted: 1, delivered: 1 });
      expect((await sent(byOld)).targeted).toBe(0);
    }
  }, 180_000);

  it('delivers 2,000 one-device sends in flight together once each, with counts equal to the ledger', async () => {
    const COUNT = 2_000;
    // Even devices are iOS ones, whose tokens are hex.
    const tokens = Array.from({ length: COUNT }, (_, n) => (n % 2 === 0 ? apnsToken(`single-${n}`) : `single-${n}`));
    const context = { project_id: project.id };
    const events: HeraldEvent[] = tokens.map((token, n) => createEvent('DeviceRegistered', { device_id: deviceIdFor(project.id, token), token, platform: n % 2 === 0 ? 'ios' : 'android' }, context));
    for (let i = 0; i < events.length; i += 1000) await harness.env.producer.publish(events.slice(i, i + 1000));
    const ids: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < COUNT) {
        const token = tokens[next++]!;
        ids.push(await send([{ token }]));
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const { apns, fcm } = harness.fakes!;
    const mine = new Set(ids);
    const deliveredIds = () => [
      ...apns.deliveries.map((delivery) => (delivery.payload as { notification_id?: string }).notification_id),
      ...fcm.deliveries.map((delivery) => (delivery.message.data as { notification_id?: string } | undefined)?.notification_id),
    ].filter((id): id is string => id !== undefined && mine.has(id));
    await waitFor(`${COUNT} one-device sends delivered`, () => deliveredIds().length >= COUNT, 180_000);
    const perNotification = new Map<string, number>();
    for (const id of deliveredIds()) perNotification.set(id, (perNotification.get(id) ?? 0) + 1);
    expect(perNotification.size).toBe(COUNT);
    expect([...perNotification.values()].every((count) => count === 1)).toBe(true);

    const db = harness.env.driverDb;
    const done = await waitFor('every notification sent and its batch in the ledger', async () => {
      const notifications = await db.collection<NotificationDocument>('notifications_v1').find({ _id: { $in: ids } }).toArray();
      const ledger = await db.collection<DeliveryLedgerDocument>('delivery_ledger_v1').find({ notification_id: { $in: ids } }).toArray();
      return notifications.filter((doc) => doc.status === 'sent').length === COUNT && ledger.length === COUNT ? { notifications, ledger } : undefined;
    }, 180_000);
    const ledgerDelivered = new Map(done.ledger.map((doc) => [doc.notification_id, doc.devices.filter((line) => line.outcome === 'delivered').length]));
    for (const doc of done.notifications) expect({ id: doc._id, ...doc.counts }).toMatchObject({ id: doc._id, targeted: 1, sent: 1, delivered: ledgerDelivered.get(doc._id) });
  }, 400_000);
});

