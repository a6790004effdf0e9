import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceIdFor } from '@herald/events';
import { startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * Devices by id and token, unregistering, and users: devices registered with
 * an external_id (with proof), reached together by an external_id target and
 * by a metadata PATCH.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };

interface DeviceRow {
  id: string;
  token: string;
  status: string;
  external_id: string | null;
  timezone: string | null;
  metadata: Record<string, string>;
  deactivation: { reason: string } | null;
}

const register = (body: Record<string, unknown>, key?: string) => harness.request('POST', '/api/v1/devices', { key, body: { project_id: project.id, platform: 'ios', ...body } });
const device = async (token: string) => (await harness.request('GET', `/api/v1/devices/${deviceIdFor(project.id, token)}`, { key: project.api_key })).body?.data as DeviceRow | undefined;
const send = async (targets: unknown[]) => {
  const response = await harness.request('POST', '/api/v1/notifications', { key: project.api_key, body: { notification: { title: 'Hi', body: 'you', targets } } });
  expect(response.status).toBe(201);
  return (response.body!.data as { id: string }).id;
};
const reached = async (id: string, expected: number) => {
  const { apns } = harness.fakes!;
  await waitFor(`notification ${id} sent`, async () => ((await harness.request('GET', `/api/v1/notifications/${id}`, { key: project.api_key })).body?.data as { status: string } | undefined)?.status === 'sent');
  const tokens = apns.deliveries.filter((delivery) => (delivery.payload as { notification_id: string }).notification_id === id).map((delivery) => delivery.token);
  expect(tokens).toHaveLength(expected);
  return tokens.sort();
};

beforeAll(async () => {
  harness = await startApiHarness('users', { delivery: true });
  project = await harness.createProject('users');
  await harness.fakes!.configure(project.id);
  // A server registering its users' devices proves itself with the bearer key.
  expect((await register({ token: apnsToken('phone-u1'), external_id: 'u-1', timezone: 'Europe/Paris' }, project.api_key)).status).toBe(201);
  expect((await register({ token: apnsToken('tablet-u1'), external_id: 'u-1', timezone: 'America/New_York' }, project.api_key)).status).toBe(201);
  expect((await register({ token: apnsToken('phone-u2'), external_id: 'u-2' }, project.api_key)).status).toBe(201);
  expect((await register({ token: apnsToken('anonymous') })).status).toBe(201);
  await waitFor('four devices projected', async () => ((await harness.request('GET', '/api/v1/devices', { key: project.api_key })).body?.data as unknown[]).length === 4);
}, 180_000);

afterAll(async () => {
  await harness?.stop();
});

describe('devices and users', () => {
  it('shows a device by id and finds one by token', async () => {
    expect(await device(apnsToken('phone-u1'))).toMatchObject({ token: apnsToken('phone-u1'), status: 'active', external_id: 'u-1', timezone: 'Europe/Paris', deactivation: null });
    expect(await device(apnsToken('anonymous'))).toMatchObject({ external_id: null, timezone: null });
    const byToken = (await harness.request('GET', `/api/v1/devices?token=${apnsToken('tablet-u1')}`, { key: project.api_key })).body as { data: DeviceRow[]; pagination: { count: number } };
    expect(byToken.data.map((row) => row.id)).toEqual([deviceIdFor(project.id, apnsToken('tablet-u1'))]);
    expect(byToken.pagination.count).toBe(1);
    const other = await harness.createProject('users-other');
    expect((await harness.request('GET', `/api/v1/devices/${deviceIdFor(project.id, apnsToken('phone-u1'))}`, { key: other.api_key })).status).toBe(404);
    expect((await harness.request('GET', `/api/v1/devices?token=${apnsToken('tablet-u1')}`, { key: other.api_key })).body).toMatchObject({ data: [] });
  });

  it("refuses a stranger's external_id claim and a bad time zone, naming them", async () => {
    const claimed = await register({ token: apnsToken('attacker'), external_id: 'u-1' });
    expect(claimed.status).toBe(403);
    expect(claimed.body).toEqual({ errors: [expect.stringContaining('external_id needs proof')] });
    const zone = await register({ token: apnsToken('lost'), timezone: 'Mars/Olympus' });
    expect(zone).toEqual({ status: 400, body: { errors: ['timezone Mars/Olympus is not an IANA time zone name (e.g. Europe/Paris)'] } });
    // Re-registering with the external id it already has needs no proof.
    expect((await register({ token: apnsToken('phone-u2'), external_id: 'u-2' })).status).toBe(201);
  });

  it("reaches exactly a user's active devices with an external_id target, and PATCHes them by it", async () => {
    expect(await reached(await send([{ external_id: 'u-1' }]), 2)).toEqual([apnsToken('phone-u1'), apnsToken('tablet-u1')]);
    // A user id is a write key only with proof: here the project's key (docs/api-limits-and-failures.md).
    expect((await harness.request('PATCH', `/api/v1/metadata?project_id=${project.id}&identifier=u-1`, { body: { metadata: { plan: 'stranger' } } })).status).toBe(404);
    const patched = await harness.request('PATCH', `/api/v1/metadata?project_id=${project.id}&identifier=u-1`, { key: project.api_key, body: { metadata: { plan: 'pro' } } });
    expect(patched).toEqual({ status: 200, body: { data: { updated: 2 } } });
    await waitFor('the metadata on both devices', async () => (await device(apnsToken('phone-u1')))?.metadata.plan === 'pro' && (await device(apnsToken('tablet-u1')))?.metadata.plan === 'pro');
    expect((await device(apnsToken('phone-u2')))?.metadata).toEqual({});
  });

  it('unregisters a device: never targeted again, listed as inactive, repeat harmless', async () => {
    const id = deviceIdFor(project.id, apnsToken('tablet-u1'));
    expect((await harness.request('DELETE', `/api/v1/devices/${id}`, { key: project.api_key })).status).toBe(204);
    await waitFor('the device unregistered', async () => (await device(apnsToken('tablet-u1')))?.status === 'inactive');
    expect(await device(apnsToken('tablet-u1'))).toMatchObject({ status: 'inactive', deactivation: { reason: 'Unregistered' } });
    expect((await harness.request('DELETE', `/api/v1/devices/${id}`, { key: project.api_key })).status).toBe(204);
    const inactive = (await harness.request('GET', '/api/v1/devices?status=inactive', { key: project.api_key })).body as { data: DeviceRow[] };
    expect(inactive.data.map((row) => row.id)).toContain(id);
    expect(await reached(await send([{ external_id: 'u-1' }, apnsToken('tablet-u1')]), 1)).toEqual([apnsToken('phone-u1')]);
    expect((await harness.request('DELETE', '/api/v1/devices/0199a1c2-0000-7000-8000-000000000000', { key: project.api_key })).status).toBe(404);
    expect((await harness.request('DELETE', `/api/v1/devices/${id}`)).status).toBe(401);
  });
});
