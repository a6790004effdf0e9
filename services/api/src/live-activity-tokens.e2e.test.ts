import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * Live Activity tokens as children of a device (docs/guides/live-activities.md):
 * the device attaches with its push token as proof, the project with its key;
 * a stranger, another project or a wrong token attaches nothing.
 */
let harness: ApiHarness;
type TokenRow = { id: string; device_id: string; kind: string; token: string; activity_id: string | null; attributes_type: string | null };

beforeAll(async () => {
  harness = await startApiHarness('live-activity-tokens');
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

const attach = (deviceId: string, body: Record<string, unknown>, key?: string) => harness.request('POST', `/api/v1/devices/${deviceId}/live-activity-tokens`, { body, key });
const list = (deviceId: string, key: string) => harness.request('GET', `/api/v1/devices/${deviceId}/live-activity-tokens`, { key });

async function registeredDevice(project: { id: string; api_key: string }, name: string, platform = 'ios'): Promise<{ id: string; token: string }> {
  const token = platform === 'ios' ? apnsToken(name) : `fcm-${name}`;
  const device = (await harness.request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform } })).body!.data as { id: string; token: string };
  await waitFor(`device ${name} projected`, async () => ((await harness.request('GET', `/api/v1/devices/${device.id}`, { key: project.api_key })).status === 200 ? true : undefined));
  return device;
}

describe('attaching Live Activity tokens', () => {
  it('takes a push-to-start token proved by the device token and an update token proved by the bearer key, and lists and removes them', async () => {
    const project = await harness.createProject('la-tokens');
    const device = await registeredDevice(project, 'la-phone');

    const start = await attach(device.id, { kind: 'push_to_start', token: apnsToken('pts-1'), attributes_type: 'DeliveryAttributes', device_token: device.token });
    expect(start).toMatchObject({ status: 201, body: { data: { device_id: device.id, kind: 'push_to_start', token: apnsToken('pts-1'), activity_id: null, attributes_type: 'DeliveryAttributes' } } });
    const update = await attach(device.id, { kind: 'update', token: apnsToken('upd-1'), activity_id: 'act-1', attributes_type: 'DeliveryAttributes' }, project.api_key);
    expect(update).toMatchObject({ status: 201, body: { data: { kind: 'update', activity_id: 'act-1' } } });

    // ActivityKit rotates tokens: the new one replaces the old in its slot (same id), never adds a second.
    const rotated = await attach(device.id, { kind: 'push_to_start', token: apnsToken('pts-2'), attributes_type: 'DeliveryAttributes', device_token: device.token });
    expect((rotated.body!.data as TokenRow).id).toBe((start.body!.data as TokenRow).id);

    const listed = (await list(device.id, project.api_key)).body!.data as TokenRow[];
    expect(listed.map(({ kind, token }) => ({ kind, token }))).toEqual([
      { kind: 'push_to_start', token: apnsToken('pts-2') },
      { kind: 'update', token: apnsToken('upd-1') },
    ]);

    const updateId = (update.body!.data as TokenRow).id;
    expect(await harness.request('DELETE', `/api/v1/devices/${device.id}/live-activity-tokens/${updateId}`, { key: project.api_key })).toMatchObject({ status: 204 });
    expect(await harness.request('DELETE', `/api/v1/devices/${device.id}/live-activity-tokens/${updateId}`, { key: project.api_key })).toMatchObject({ status: 404 });
    expect(((await list(device.id, project.api_key)).body!.data as TokenRow[]).map(({ kind }) => kind)).toEqual(['push_to_start']);

    // An unregistered device is never targeted again: its tokens go with it.
    expect(await harness.request('DELETE', `/api/v1/devices/${device.id}`, { key: project.api_key })).toMatchObject({ status: 204 });
    expect(await list(device.id, project.api_key)).toEqual({ status: 200, body: { data: [] } });
  });

  it('refuses a stranger, another project and a wrong device token, attaching nothing', async () => {
    const project = await harness.createProject('la-victim');
    const other = await harness.createProject('la-other');
    const victim = await registeredDevice(project, 'la-victim-phone');
    const attacker = await registeredDevice(other, 'la-attacker-phone');
    const body = { kind: 'update', token: apnsToken('evil'), activity_id: 'act-x' };
    const forbidden = { status: 403, body: { errors: ["device_token: the device's current push token (or the project's bearer key) is required to attach a token to it"] } };

    expect(await attach(victim.id, body)).toEqual(forbidden);
    expect(await attach(victim.id, { ...body, device_token: attacker.token })).toEqual(forbidden);
    expect(await attach(victim.id, { ...body, device_token: apnsToken('la-victim-phonf') })).toEqual(forbidden);
    // An id no device has answers exactly as a wrong token does: nothing learned about which ids exist.
    expect(await attach('00000000-0000-4000-8000-000000000000', { ...body, device_token: victim.token })).toEqual(forbidden);
    expect(await attach(victim.id, body, other.api_key)).toMatchObject({ status: 404 });
    expect(await attach(victim.id, body, 'not-a-key')).toMatchObject({ status: 401 });
    // Another project's key neither lists nor removes the victim's tokens.
    expect(await list(victim.id, other.api_key)).toMatchObject({ status: 404 });
    expect(await list(victim.id, project.api_key)).toEqual({ status: 200, body: { data: [] } });
  });

  it('answers bad input with the field named, and refuses a device that is not iOS', async () => {
    const project = await harness.createProject('la-input');
    const device = await registeredDevice(project, 'la-input-phone');
    const android = await registeredDevice(project, 'la-android', 'android');
    const proof = { device_token: device.token };

    const missingActivity = await attach(device.id, { kind: 'update', token: apnsToken('u'), ...proof });
    expect(missingActivity).toEqual({ status: 400, body: { errors: ['activity_id: required for an update token'] } });
    const badToken = await attach(device.id, { kind: 'push_to_start', token: 'not-hex', ...proof });
    expect(badToken.status).toBe(400);
    expect(JSON.stringify(badToken.body)).toContain('token');
    const badKind = await attach(device.id, { kind: 'later', token: apnsToken('u'), ...proof });
    expect(badKind.status).toBe(400);
    expect(JSON.stringify(badKind.body)).toContain('kind');
    expect(await attach(android.id, { kind: 'push_to_start', token: apnsToken('a') }, project.api_key)).toEqual({
      status: 422,
      body: { errors: [`device ${android.id}: Live Activities are iOS only (the device is android)`] },
    });
  });
});
