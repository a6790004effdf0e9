import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceIdFor } from '@herald/events';
import { apnsToken, startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * Issue 44: devices the project deleted can be purged, by the API (bearer
 * key) or the operator (herald CLI). Purged devices leave the device list
 * and its counts, and the delivery's audience index (their token registered
 * again is a new device: nothing of before reaches it); a rebuild of the
 * devices read model from the log leaves them out; receipts stay in the
 * delivery ledger.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };

beforeAll(async () => {
  harness = await startApiHarness('device-purge', { delivery: true });
  project = await harness.createProject('purge');
  await harness.fakes!.configure(project.id);
}, 180_000);
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0, delivery: 0 });
});

type Listed = { data: Array<{ id: string; token: string; status: string }>; pagination: { count: number } };
const register = (label: string, extra: Record<string, unknown> = {}) =>
  harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token: apnsToken(label), platform: 'ios', ...extra } });
const idOf = (label: string) => deviceIdFor(project.id, apnsToken(label));
const list = async (query = '') => (await harness.request('GET', `/api/v1/devices?limit=100${query}`, { key: project.api_key })).body as Listed;
/** Whether the list and its count (the projector's counters) both hold exactly these devices. */
const listedAre = async (labels: readonly string[], query = '') => {
  const page = await list(query);
  return page.pagination.count === labels.length && page.data.map((device) => device.id).sort().join() === labels.map(idOf).sort().join();
};

/** Sends to `targets`; resolves with the notification once it is sent, and the tokens the fake APNs received it for. */
async function send(targets: unknown[]): Promise<{ counts: { targeted: number; delivered: number }; tokens: string[] }> {
  const sent = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Hi', body: 'x', targets } } });
  expect(sent.status).toBe(201);
  const id = (sent.body!.data as { id: string }).id;
  const done = await waitFor(`notification ${id} sent`, async () => {
    const data = (await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string; counts: { targeted: number; delivered: number } };
    return data.status === 'sent' && data.counts.delivered === data.counts.targeted ? data : undefined;
  }, 60_000);
  const tokens = harness.fakes!.apns.deliveries.filter((delivery) => (delivery.payload as { notification_id: string }).notification_id === id).map((delivery) => delivery.token);
  return { counts: done.counts, tokens: tokens.sort() };
}

describe('purging deleted devices', () => {
  it('by the API: they leave the list, its counts and the audience; a rebuild keeps them out; receipts stay', async () => {
    for (const [label, extra] of [['keep', {}], ['gone-1', { metadata: { plan: 'old' } }], ['gone-2', {}]] as const) expect((await register(label, extra)).status).toBe(201);
    await waitFor('three devices listed', () => listedAre(['keep', 'gone-1', 'gone-2']));
    const before = await send([{ metadata: { plan: 'old' } }]);
    expect(before.tokens).toEqual([apnsToken('gone-1')]);

    for (const label of ['gone-1', 'gone-2']) expect((await harness.request('DELETE', `/api/v1/devices/${idOf(label)}`, { key: project.api_key })).status).toBe(204);
    await waitFor('two devices deleted', () => listedAre(['gone-1', 'gone-2'], '&status=inactive'));
    expect((await harness.request('POST', '/api/v1/devices/purge')).status).toBe(401);

    expect(await harness.request('POST', '/api/v1/devices/purge', { key: project.api_key })).toMatchObject({ status: 200, body: { data: { purged: 2, more: false } } });
    await waitFor('only the kept device listed and counted', () => listedAre(['keep']));
    expect(await listedAre([], '&status=inactive')).toBe(true);
    expect((await harness.request('GET', `/api/v1/devices/${idOf('gone-1')}`, { key: project.api_key })).status).toBe(404);
    // Nothing is left to purge.
    expect((await harness.request('POST', '/api/v1/devices/purge', { key: project.api_key })).body).toEqual({ data: { purged: 0, more: false } });

    // Its token registered again is a new device, to the read model and to the audience index alike.
    expect((await register('gone-1')).status).toBe(201);
    await waitFor('the new device listed', () => listedAre(['keep', 'gone-1']));
    expect((await harness.request('GET', `/api/v1/devices/${idOf('gone-1')}`, { key: project.api_key })).body?.data).toMatchObject({ status: 'active', metadata: {} });
    expect((await send([{ metadata: { plan: 'old' } }])).counts.targeted).toBe(0);
    expect((await send([apnsToken('gone-1')])).tokens).toEqual([apnsToken('gone-1')]);

    // The delivery ledger keeps what was sent before: the first notification's receipts are the device's still.
    const receipts = (await harness.request('GET', `/api/v1/devices/${idOf('gone-1')}/receipts`, { key: project.api_key })).body as { data: Array<{ outcome: string }> };
    expect(receipts.data.filter((receipt) => receipt.outcome === 'delivered')).toHaveLength(2);

    // A rebuild of the devices read model from the log leaves the purged device out.
    expect(await harness.herald('replay', 'devices')).toContain('switched devices readers to v2');
    await waitFor('the rebuilt read model lists the same devices', () => listedAre(['keep', 'gone-1']), 30_000);
    expect((await harness.request('GET', `/api/v1/devices/${idOf('gone-2')}`, { key: project.api_key })).status).toBe(404);
    expect((await harness.request('GET', `/api/v1/devices/${idOf('gone-1')}`, { key: project.api_key })).body?.data).toMatchObject({ status: 'active', metadata: {} });
  }, 240_000);

  it('by the operator: herald projects purge-devices', async () => {
    expect((await harness.request('DELETE', `/api/v1/devices/${idOf('keep')}`, { key: project.api_key })).status).toBe(204);
    await waitFor('the device deleted', () => listedAre(['keep'], '&status=inactive'));
    expect(JSON.parse(await harness.herald('projects', 'purge-devices', project.id, '--json'))).toEqual({ project_id: project.id, purged: 1, more: false });
    await waitFor('the device purged', () => listedAre(['gone-1']));
  }, 120_000);
});
