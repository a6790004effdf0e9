import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, waitFor, type ApiHarness, apnsToken } from '@herald/testing';

/**
 * Identity verification end to end: the CLI turns it on and prints the
 * secret, the API (its own process) then refuses metadata writes without the
 * identifier's HMAC, and the projector's read model shows which writes landed.
 */
let harness: ApiHarness;
let project: { id: string; api_key: string };
type DeviceRow = { token: string; metadata: Record<string, string> };

/** What docs/reference/device-endpoints.md tells a project's server to compute. */
const hashOf = (secret: string, identifier: string) => createHmac('sha256', secret).update(`identifier:${identifier}`).digest('hex');

const verification = async (...args: string[]) =>
  JSON.parse(await harness.herald('projects', 'identity-verification', project.id, ...args, '--json')) as {
    project_id: string;
    identity_verification: boolean;
    secret?: string;
  };

const patch = (identifier: string, metadata: Record<string, string>, hash?: string, projectId = project.id) => {
  const query = new URLSearchParams({ project_id: projectId, identifier, ...(hash === undefined ? {} : { identifier_hash: hash }) });
  return harness.request('PATCH', `/api/v1/metadata?${query.toString()}`, { body: { metadata } });
};

async function listed(apiKey = project.api_key): Promise<DeviceRow[]> {
  return (await harness.request('GET', '/api/v1/devices', { key: apiKey })).body?.data as DeviceRow[];
}

/** Waits until the device shows `key: value`: every write produced before it (same device, same partition) is projected too. */
const projected = (token: string, key: string, value: string) =>
  waitFor(`${token}'s metadata.${key} = ${value} projected`, async () => {
    const device = (await listed()).find((row) => row.token === token);
    return device?.metadata[key] === value ? device : undefined;
  });

beforeAll(async () => {
  harness = await startApiHarness('identity-verification');
  project = await harness.createProject('verified');
  await harness.request('POST', '/api/v1/devices', {
    body: { project_id: project.id, platform: 'ios', token: apnsToken('alice-phone'), identifiers: { user_id: 'alice' } },
  });
  await waitFor('alice’s device projected', async () => ((await listed()).length === 1 ? true : undefined));
});

afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

describe('identity verification', () => {
  it('is off for a new project: a write without identifier_hash goes through', async () => {
    expect(await verification()).toEqual({ project_id: project.id, identity_verification: false });
    expect((await patch('alice', { step: 'off' })).status).toBe(200);
    await projected(apnsToken('alice-phone'), 'step', 'off');
  });

  it('once on, refuses writes without the identifier’s HMAC (401, nothing written) and accepts it with it', async () => {
    const on = await verification('on');
    expect(on).toMatchObject({ project_id: project.id, identity_verification: true, secret: expect.stringMatching(/^hdas_[0-9a-f]{64}$/) });
    const secret = on.secret!;

    expect(await patch('alice', { forged: 'none' })).toEqual({
      status: 401,
      body: { errors: ['identifier_hash is required: identity verification is on for this project'] },
    });
    const wrong = { status: 401, body: { errors: ['identifier_hash is not the HMAC-SHA256 of "identifier:" + identifier under the project’s device-auth secret'] } };
    expect(await patch('alice', { forged: 'other-identifier' }, hashOf(secret, 'mallory'))).toEqual(wrong);
    expect(await patch('alice', { forged: 'other-secret' }, hashOf(`${secret}x`, 'alice'))).toEqual(wrong);
    // An unverified caller cannot even learn whether an identifier exists: 401 before the 404.
    expect((await patch('nobody', { forged: 'probe' })).status).toBe(401);

    // alice's phone registered her id before verification was on, without proof: a verified write does not reach it
    // until it registers again with the proof (docs/api-limits-and-failures.md, "What a caller without a key can do").
    expect((await patch('alice', { step: 'unproven' }, hashOf(secret, 'alice'))).status).toBe(404);
    const proven = await harness.request('POST', '/api/v1/devices', {
      body: { project_id: project.id, platform: 'ios', token: apnsToken('alice-phone'), identifiers: { user_id: 'alice' }, identifier_hashes: { user_id: hashOf(secret, 'alice') } },
    });
    expect(proven.status).toBe(201);
    await waitFor('the proven registration projected: the verified write reaches alice', async () => (await patch('alice', { step: 'verified' }, hashOf(secret, 'alice'))).status === 200);
    expect((await patch('alice', { step: 'verified-upper' }, hashOf(secret, 'alice').toUpperCase())).status).toBe(200);
    const device = await projected(apnsToken('alice-phone'), 'step', 'verified-upper');
    expect(device.metadata).not.toHaveProperty('forged');
    // With the right hash an unknown identifier is an ordinary 404.
    expect((await patch('nobody', { a: 'b' }, hashOf(secret, 'nobody'))).status).toBe(404);
  });

  it('400 names identifier_hash when it is not 64 hex digits', async () => {
    expect(await patch('alice', { a: 'b' }, 'not-hex')).toEqual({ status: 400, body: { errors: [expect.stringContaining('identifier_hash')] } });
  });

  it('"on" again keeps the secret (printed no more); --rotate replaces it at once', async () => {
    const again = await verification('on');
    expect(again).toMatchObject({ identity_verification: true });
    expect(again).not.toHaveProperty('secret');

    const first = await verification('on', '--rotate');
    const second = await verification('on', '--rotate');
    expect(second.secret).toMatch(/^hdas_[0-9a-f]{64}$/);
    expect(second.secret).not.toBe(first.secret);
    expect((await patch('alice', { step: 'old-secret' }, hashOf(first.secret!, 'alice'))).status).toBe(401);
    expect((await patch('alice', { step: 'rotated' }, hashOf(second.secret!, 'alice'))).status).toBe(200);
    const device = await projected(apnsToken('alice-phone'), 'step', 'rotated');
    expect(device.metadata.step).toBe('rotated');
  });

  it('is per project: another project’s writes need no hash', async () => {
    const other = await harness.createProject('unverified');
    await harness.request('POST', '/api/v1/devices', { body: { project_id: other.id, platform: 'android', token: 'bob-phone', identifiers: { user_id: 'bob' } } });
    await waitFor('bob’s device projected', async () => ((await listed(other.api_key)).length === 1 ? true : undefined));
    expect((await patch('bob', { plan: 'free' }, undefined, other.id)).status).toBe(200);
  });

  it('"off" forgets the secret: writes without a hash go through again', async () => {
    expect(await verification('off')).toEqual({ project_id: project.id, identity_verification: false });
    expect((await patch('alice', { step: 'off-again' })).status).toBe(200);
    await projected(apnsToken('alice-phone'), 'step', 'off-again');
  });

  it('the CLI refuses an unknown project and an unknown state, and prints the secret in plain output once', async () => {
    await expect(harness.herald('projects', 'identity-verification', 'no-such-project', 'on')).rejects.toThrow(/project no-such-project does not exist/);
    await expect(harness.herald('projects', 'identity-verification', project.id, 'maybe')).rejects.toThrow(/on, off/);
    await expect(harness.herald('projects', 'identity-verification', project.id, 'off', '--rotate')).rejects.toThrow(/--rotate goes only with "on"/);
    const text = await harness.herald('projects', 'identity-verification', project.id, 'on');
    expect(text).toMatch(/device-auth secret: hdas_[0-9a-f]{64}\n/);
    expect(text).toContain('shown only this once');
    expect(await harness.herald('projects', 'identity-verification', project.id, 'on')).toMatch(/already on .* the secret is unchanged/);
  });

  it('the OpenAPI document shows identifier_hash and the 401', async () => {
    const openapi = (await harness.request('GET', '/docs/json')).body as {
      paths: Record<string, { patch: { parameters: Array<{ name: string; in: string }>; responses: Record<string, unknown> } }>;
    };
    const operation = openapi.paths['/api/v1/metadata']!.patch;
    expect(operation.parameters).toContainEqual(expect.objectContaining({ name: 'identifier_hash', in: 'query' }));
    expect(operation.responses).toHaveProperty('401');
  });
});
