import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor } from '@herald/events';
import { startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * User links (issue 17, item 2) and proofs (item 6): the project detaches a
 * device from its user; DELETE clears the link; a re-registration never
 * brings a previous link back without proof; a device moves to another
 * token (its first one included) only with a refresh's proof; every answer
 * matches what is stored; a metadata proof is no proof of a user.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };

interface DeviceRow {
  id: string;
  token: string;
  status: string;
  external_id: string | null;
}

beforeAll(async () => {
  harness = await startApiHarness('user-links');
  project = await harness.createProject('user-links');
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

const register = (body: Record<string, unknown>, key?: string) => harness.request('POST', '/api/v1/devices', { key, body: { project_id: project.id, platform: 'ios', ...body } });
const stored = async (id: string) => (await harness.request('GET', `/api/v1/devices/${id}`, { key: project.api_key })).body?.data as DeviceRow | undefined;
/** Registers, waits until the read model shows what the answer said, and returns the answer. */
async function registered(body: Record<string, unknown>, key?: string): Promise<DeviceRow> {
  const response = await register(body, key);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const answer = response.body!.data as DeviceRow & { updated_at: string };
  const projected = await waitFor(`device ${answer.id} as answered`, async () => {
    const row = (await stored(answer.id)) as (DeviceRow & { updated_at: string }) | undefined;
    return row?.updated_at === answer.updated_at ? row : undefined;
  });
  // Every answer matches what is stored.
  expect(projected).toEqual(answer);
  return answer;
}
const linked = (token: string, user: string) => registered({ token, external_id: user }, project.api_key);

describe('user links', () => {
  it('DELETE clears the link, and an anonymous re-registration of the token comes back without the user', async () => {
    const device = await linked(apnsToken('resold-phone'), 'u-previous-owner');
    expect(device.external_id).toBe('u-previous-owner');
    expect((await harness.request('DELETE', `/api/v1/devices/${device.id}`, { key: project.api_key })).status).toBe(204);
    await waitFor('the device unregistered', async () => (await stored(device.id))?.status === 'inactive');
    expect(await stored(device.id)).toMatchObject({ status: 'inactive', external_id: null });

    const back = await registered({ token: apnsToken('resold-phone') });
    expect(back).toMatchObject({ id: device.id, status: 'active', external_id: null });
    // Naming the old user again needs proof like any claim.
    expect((await register({ token: apnsToken('resold-phone'), external_id: 'u-previous-owner' })).status).toBe(403);
  });

  it('a device whose token a provider rejected comes back without its user unless the registration proves one', async () => {
    const device = await linked(apnsToken('reinstalled'), 'u-7');
    await harness.env.producer.publish([createEvent('DeviceDeactivated', { device_id: device.id, provider: 'apns', reason: 'BadDeviceToken' }, { project_id: project.id })]);
    await waitFor('the device deactivated', async () => (await stored(device.id))?.status === 'inactive');
    expect((await register({ token: apnsToken('reinstalled'), external_id: 'u-7' })).status).toBe(403);
    expect(await registered({ token: apnsToken('reinstalled') })).toMatchObject({ status: 'active', external_id: null });
    expect(await linked(apnsToken('reinstalled'), 'u-7')).toMatchObject({ external_id: 'u-7' });
  });

  it('the project detaches a device (PATCH external_id null); the app may unlink itself; nobody else can', async () => {
    const device = await linked(apnsToken('shared-tablet'), 'u-8');
    expect(await harness.request('PATCH', `/api/v1/devices/${device.id}`, { key: project.api_key, body: { external_id: null } })).toMatchObject({
      status: 200,
      body: { data: { id: device.id, external_id: null, status: 'active' } },
    });
    await waitFor('the device unlinked', async () => (await stored(device.id))?.external_id === null);
    expect((await harness.request('PATCH', `/api/v1/devices/${device.id}`, { body: { external_id: null } })).status).toBe(401);
    expect((await harness.request('PATCH', `/api/v1/devices/${device.id}`, { key: project.api_key, body: { external_id: 'u-9' } })).status).toBe(400);
    const other = await harness.createProject('user-links-other');
    expect((await harness.request('PATCH', `/api/v1/devices/${device.id}`, { key: other.api_key, body: { external_id: null } })).status).toBe(404);

    await linked(apnsToken('shared-tablet'), 'u-8');
    expect(await registered({ token: apnsToken('shared-tablet'), external_id: null })).toMatchObject({ external_id: null });
  });

  it("a device moves back to its first token only with a refresh's proof; answers match what is stored", async () => {
    const device = await linked(apnsToken('first-token'), 'u-10');
    expect(device.id).toBe(deviceIdFor(project.id, apnsToken('first-token')));
    const moved = await registered({ token: apnsToken('second-token'), device_id: device.id, previous_token: apnsToken('first-token') });
    expect(moved).toMatchObject({ id: device.id, token: apnsToken('second-token'), external_id: 'u-10' });

    const back = await register({ token: apnsToken('first-token') });
    expect(back).toEqual({ status: 409, body: { errors: [expect.stringContaining('token was the first token of a device that has since moved to another')] } });
    const again = await register({ token: apnsToken('first-token'), device_id: device.id });
    expect(again.status).toBe(403);
    expect(await stored(device.id)).toMatchObject({ token: apnsToken('second-token'), external_id: 'u-10' });
    // With the proof it moves.
    expect(await registered({ token: apnsToken('first-token'), device_id: device.id, previous_token: apnsToken('second-token') })).toMatchObject({ token: apnsToken('first-token'), external_id: 'u-10' });
  });
});

describe('proofs are valid only for their own purpose', () => {
  it("identifier_hash is no external_id_hash, and the plain HMAC of a value proves nothing", async () => {
    const verified = await harness.createProject('user-links-verified');
    const { secret } = JSON.parse(await harness.herald('projects', 'identity-verification', verified.id, 'on', '--json')) as { secret: string };
    const proof = (message: string) => createHmac('sha256', secret).update(message).digest('hex');
    const claim = (hash: string) => harness.request('POST', '/api/v1/devices', { body: { project_id: verified.id, platform: 'ios', token: apnsToken('mallory-phone'), external_id: 'u-victim', external_id_hash: hash } });
    expect((await claim(proof('identifier:u-victim'))).status).toBe(403);
    expect((await claim(proof('u-victim'))).status).toBe(403);
    expect(await claim(proof('external_id:u-victim'))).toMatchObject({ status: 201, body: { data: { external_id: 'u-victim' } } });

    await waitFor('the device projected', async () => ((await harness.request('GET', '/api/v1/devices', { key: verified.api_key })).body?.data as unknown[]).length === 1);
    const patch = (hash: string) => harness.request('PATCH', `/api/v1/metadata?project_id=${verified.id}&identifier=u-victim&identifier_hash=${hash}`, { body: { metadata: { a: 'b' } } });
    expect((await patch(proof('external_id:u-victim'))).status).toBe(401);
    expect((await patch(proof('u-victim'))).status).toBe(401);
    expect(await patch(proof('identifier:u-victim'))).toEqual({ status: 200, body: { data: { updated: 1 } } });
  });
});
