import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceIdFor } from '@herald/events';
import { createTopics, startApiHarness, waitFor, waitForReceiptsCaughtUp, type ApiHarness, apnsToken, apnsTokenPrefix } from '@herald/testing';

/**
 * Following a notification over the real stack: its status, counts per
 * provider and timestamps, the list of notifications, and per-device
 * receipts per notification and per device, which always add up to the counts.
 */
type Counts = Record<'targeted' | 'sent' | 'delivered' | 'failed' | 'invalid' | 'cancelled' | 'opened', number>;
interface NotificationBody {
  id: string;
  status: string;
  counts: Counts;
  counts_by_provider: { apns: Counts; fcm: Counts };
  created_at: string;
  dispatched_at: string | null;
  finished_at: string | null;
  request: Record<string, unknown>;
}
interface Receipt {
  notification_id: string;
  device_id: string;
  provider: string;
  outcome: string;
  reason: string | null;
  attempts: number | null;
  delivered_at: string | null;
  opened_at: string | null;
}
interface Page<T> {
  data: T[];
  pagination: { count: number; page: number; pages: number; from: number; to: number; last: number };
}

const IOS_OK = [apnsToken('ios-ok-1'), apnsToken('ios-ok-2'), apnsToken('ios-ok-3')];
const IOS_GONE = apnsToken('ios-gone-1');
const IOS_WRONG = apnsToken('ios-wrongtopic-1');
const ANDROID_OK = ['android-ok-1', 'android-ok-2'];

let harness: ApiHarness;
let project: { id: string; api_key: string };

const get = async <T>(path: string) => {
  const response = await harness.request('GET', path, { key: project.api_key });
  return { status: response.status, body: response.body as unknown as T };
};
const send = async (notification: Record<string, unknown>) => {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification } });
  expect(response.status).toBe(201);
  return (response.body!.data as { id: string }).id;
};
const finished = (id: string) =>
  waitFor(`notification ${id} sent`, async () => {
    const { body } = await get<{ data: NotificationBody }>(`/api/v1/notifications/${id}`);
    return body?.data?.status === 'sent' ? body.data : undefined;
  }, 60_000);
/** Every receipt of a notification, page by page. */
async function allReceipts(id: string, query = ''): Promise<Receipt[]> {
  const rows: Receipt[] = [];
  for (let page = 1; ; page += 1) {
    const { body } = await get<Page<Receipt>>(`/api/v1/notifications/${id}/receipts?limit=2&page=${page}${query}`);
    rows.push(...body.data);
    if (page >= body.pagination.last) return rows;
  }
}

beforeAll(async () => {
  harness = await startApiHarness('follow', {
    delivery: true,
    apnsRules: [
      { prefix: apnsTokenPrefix('ios-gone-'), status: 410, reason: 'Unregistered' },
      { prefix: apnsTokenPrefix('ios-wrongtopic-'), status: 400, reason: 'DeviceTokenNotForTopic' },
    ],
  });
  project = await harness.createProject('follow');
  await harness.fakes!.configure(project.id);
  await createTopics(harness, project.api_key, ['crowd']);
  for (const token of [...IOS_OK, IOS_GONE, IOS_WRONG]) {
    expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform: 'ios', topics: ['crowd'] } })).status).toBe(201);
  }
  for (const token of ANDROID_OK) {
    expect((await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform: 'android', topics: ['crowd'] } })).status).toBe(201);
  }
  await waitFor('all devices projected', async () => (await get<Page<unknown>>('/api/v1/devices?limit=1')).body?.pagination?.count === 7);
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

describe('following a notification', () => {
  it('shows status, counts per provider, timestamps and the request as sent', async () => {
    const id = await send({ title: 'Sale', body: 'Now', targets: ['crowd'], link_to: 'app://sale' });
    const data = await finished(id);
    expect(data.counts).toEqual({ targeted: 7, sent: 7, delivered: 5, failed: 1, invalid: 1, cancelled: 0, expired: 0, capped: 0, deferred: 0, opened: 0 });
    expect(data.counts_by_provider.apns).toEqual({ targeted: 5, sent: 5, delivered: 3, failed: 1, invalid: 1, cancelled: 0, expired: 0, capped: 0, deferred: 0, opened: 0 });
    expect(data.counts_by_provider.fcm).toEqual({ targeted: 2, sent: 2, delivered: 2, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, deferred: 0, opened: 0 });
    expect(data.request).toEqual({ title: 'Sale', body: 'Now', targets: ['crowd'], link_to: 'app://sale' });
    expect(Date.parse(data.dispatched_at!)).toBeGreaterThanOrEqual(Date.parse(data.created_at));
    expect(Date.parse(data.finished_at!)).toBeGreaterThanOrEqual(Date.parse(data.dispatched_at!));

    // Receipts: one per device with an outcome, adding up to the counts, each with its provider's reason.
    // They are the ledger, a projection of its own: it may trail the counts until it has caught up.
    await waitForReceiptsCaughtUp(harness.env.kafka);
    const receipts = await allReceipts(id);
    expect(receipts).toHaveLength(data.counts.sent);
    const byToken = (token: string) => receipts.find((row) => row.device_id === deviceIdFor(project.id, token))!;
    expect(byToken(IOS_GONE)).toMatchObject({ provider: 'apns', outcome: 'invalid', reason: 'Unregistered', delivered_at: null });
    expect(byToken(IOS_WRONG)).toMatchObject({ provider: 'apns', outcome: 'failed', reason: 'DeviceTokenNotForTopic' });
    expect(byToken('android-ok-1')).toMatchObject({ provider: 'fcm', outcome: 'delivered', reason: null, attempts: 1, opened_at: null });
    expect(Date.parse(byToken(apnsToken('ios-ok-1')).delivered_at!)).toBeGreaterThanOrEqual(Date.parse(data.created_at));
    for (const outcome of ['delivered', 'failed', 'invalid'] as const) {
      const filtered = await allReceipts(id, `&outcome=${outcome}`);
      expect(filtered.map((row) => row.outcome)).toEqual(Array.from({ length: data.counts[outcome] }, () => outcome));
    }
    const page = await get<Page<Receipt>>(`/api/v1/notifications/${id}/receipts?limit=3&page=2`);
    expect(page.body.pagination).toEqual({ count: 7, page: 2, pages: 3, from: 4, to: 6, last: 3 });

    // An open shows on the receipt and in the provider's counts.
    const opened = await harness.request('PUT', `/api/v1/notifications/${id}/open`, { body: { project_id: project.id, token: 'android-ok-2' } });
    expect(opened.status).toBe(204);
    await waitFor('the open on the receipt', async () => (await allReceipts(id)).find((row) => row.device_id === deviceIdFor(project.id, 'android-ok-2'))?.opened_at !== null);
    // The counts are another read model than the receipts, fetched in bulk: it may trail them a moment.
    const afterOpen = await waitFor('the open in the counts', async () => {
      const data = (await get<{ data: NotificationBody }>(`/api/v1/notifications/${id}`)).body.data;
      return data.counts.opened === 1 ? data : undefined;
    });
    expect(afterOpen.counts_by_provider.fcm.opened).toBe(1);
  });

  it('lists notifications newest first, by status, paged', async () => {
    const first = await send({ title: 'One', body: 'x', targets: [apnsToken('ios-ok-1')] });
    await finished(first);
    const second = await send({ title: 'Two', body: 'x', targets: [apnsToken('ios-ok-2')] });
    await finished(second);
    const listed = await get<Page<NotificationBody>>('/api/v1/notifications?limit=2');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((row) => row.id)).toEqual([second, first]);
    expect(listed.body.pagination).toMatchObject({ page: 1, from: 1, to: 2 });
    const total = listed.body.pagination.count;
    expect(total).toBeGreaterThanOrEqual(3);
    const sent = await get<Page<NotificationBody>>('/api/v1/notifications?status=sent&limit=100');
    expect(sent.body.data.every((row) => row.status === 'sent')).toBe(true);
    expect(sent.body.pagination.count).toBe(total);
    const none = await get<Page<NotificationBody>>('/api/v1/notifications?status=cancelled');
    expect(none.body).toEqual({ data: [], pagination: { count: 0, page: 1, pages: 1, from: 0, to: 0, last: 1 } });

    const other = await harness.createProject('follow-other');
    const foreign = await harness.request('GET', '/api/v1/notifications', { key: other.api_key });
    expect(foreign.body).toMatchObject({ data: [], pagination: { count: 0 } });
  });

  it("lists a device's receipts, newest first", async () => {
    const device = deviceIdFor(project.id, apnsToken('ios-ok-3'));
    const one = await send({ title: 'A', body: 'x', targets: [apnsToken('ios-ok-3')] });
    await finished(one);
    const two = await send({ title: 'B', body: 'x', targets: [apnsToken('ios-ok-3')] });
    await finished(two);
    // Each send's reports may sit on another partition of the ledger's topic: the newest in the ledger says nothing of the one before it.
    await waitForReceiptsCaughtUp(harness.env.kafka);
    const receipts = (await get<Page<Receipt>>(`/api/v1/devices/${device}/receipts?limit=2`)).body;
    expect(receipts.data.map((row) => row.notification_id)).toEqual([two, one]);
    expect(receipts.data.every((row) => row.device_id === device && row.outcome === 'delivered')).toBe(true);
    const failed = await get<Page<Receipt>>(`/api/v1/devices/${device}/receipts?outcome=failed`);
    expect(failed.body.data).toEqual([]);
    const wrong = await get<Page<Receipt>>(`/api/v1/devices/${deviceIdFor(project.id, IOS_WRONG)}/receipts?outcome=failed`);
    expect(wrong.body.data[0]).toMatchObject({ outcome: 'failed', reason: 'DeviceTokenNotForTopic' });
  });

  it('answers bad input and unknown ids with errors naming them', async () => {
    const unknown = '0199a1c2-0000-7000-8000-000000000000';
    expect(await get(`/api/v1/notifications?status=done`)).toMatchObject({ status: 400, body: { errors: [expect.stringContaining('status')] } });
    expect(await get(`/api/v1/notifications/${unknown}/receipts`)).toMatchObject({ status: 404, body: { errors: [expect.stringContaining(unknown)] } });
    expect(await get(`/api/v1/devices/${unknown}/receipts`)).toMatchObject({ status: 404, body: { errors: [expect.stringContaining(unknown)] } });
    expect(await get(`/api/v1/notifications/${unknown}/receipts?outcome=lost`)).toMatchObject({ status: 400, body: { errors: [expect.stringContaining('outcome')] } });
    expect((await harness.request('GET', '/api/v1/notifications')).status).toBe(401);
    // Another project's notification is not found, not shown.
    const other = await harness.createProject('follow-stranger');
    const id = await send({ title: 'Mine', body: 'x', targets: [apnsToken('ios-ok-1')] });
    const foreign = await harness.request('GET', `/api/v1/notifications/${id}/receipts`, { key: other.api_key });
    expect(foreign.status).toBe(404);
  });
});
