import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceIdFor } from '@herald/events';
import { startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * What a caller without a key can do to a project (issue 44, items 4 to 6;
 * docs/api-limits-and-failures.md "What a caller without a key can do"):
 * anonymous registrations fill only their share of the device quota, deleted
 * devices stop counting, new anonymous devices have their own rate budget, a
 * user id is a write key only with proof, a token has one active device, and
 * every failed key check spends the address's budget. Low limits of this
 * file's own API process; TRUST_PROXY lets the test speak from several
 * addresses; the window is long so no budget refills during the file.
 */
const LIMITS = { quota: 4, anonymousPercent: 50, perProject: 6, newDevicesPerProject: 4, unauthenticated: 3 };
let harness: ApiHarness;

beforeAll(async () => {
  harness = await startApiHarness('device-facing-limits', {
    apiEnv: {
      HERALD_RATE_LIMITS: 'on',
      TRUST_PROXY: 'true',
      RATE_LIMIT_WINDOW_MS: '600000',
      RATE_LIMIT_DEVICE_PER_ADDRESS: '100',
      RATE_LIMIT_DEVICE_PER_PROJECT: String(LIMITS.perProject),
      RATE_LIMIT_NEW_DEVICES_PER_PROJECT: String(LIMITS.newDevicesPerProject),
      RATE_LIMIT_UNAUTHENTICATED_PER_ADDRESS: String(LIMITS.unauthenticated),
      PROJECT_DEVICE_QUOTA: String(LIMITS.quota),
      PROJECT_ANONYMOUS_DEVICE_PERCENT: String(LIMITS.anonymousPercent),
      DEVICE_QUOTA_RECOUNT_MS: '1000',
    },
  });
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

/** A well-formed APNs token (64 hex digits) that still reads as its label. */
const token = (label: string) => Buffer.from(label, 'utf8').toString('hex').padEnd(64, '0');
const hashOf = (secret: string, identifier: string) => createHmac('sha256', secret).update(`identifier:${identifier}`).digest('hex');

let addresses = 0;
/** Each call from its own address unless told: the per-address limit is not what these tests are about. */
const from = (address?: string) => ({ 'x-forwarded-for': address ?? `192.0.2.${(addresses += 1) % 250}` });
const register = (projectId: string, body: Record<string, unknown>, options: { key?: string; address?: string } = {}) =>
  harness.request('POST', '/api/v1/devices', { key: options.key, headers: from(options.address), body: { project_id: projectId, platform: 'ios', ...body, token: token(body.token as string) } });
const patch = (projectId: string, identifier: string, metadata: Record<string, string>, options: { key?: string; hash?: string } = {}) => {
  const query = new URLSearchParams({ project_id: projectId, identifier, ...(options.hash === undefined ? {} : { identifier_hash: options.hash }) });
  return harness.request('PATCH', `/api/v1/metadata?${query.toString()}`, { key: options.key, headers: from(), body: { metadata } });
};
const listed = async (apiKey: string) => (await harness.request('GET', '/api/v1/devices?limit=100', { key: apiKey, headers: from() })).body?.data as Array<{ token: string; status: string; metadata: Record<string, string> }>;
const withToken = (label: string) => (device: { token: string }) => device.token === token(label);
const anonymousQuotaFull = (projectId: string, anonymous: number) =>
  `project_id ${projectId} holds ${anonymous} devices registered without its API key, its share for them (PROJECT_ANONYMOUS_DEVICE_PERCENT of its device quota): register with the API key, or delete devices it does not want`;

describe('registration cannot be exhausted by strangers', () => {
  it('anonymous devices fill only their share of the quota, the key registers past it, and deleted devices stop counting', async () => {
    const project = await harness.createProject('quota-share');
    const anonymous = (LIMITS.quota * LIMITS.anonymousPercent) / 100;
    for (let index = 0; index < anonymous; index += 1) expect((await register(project.id, { token: `junk-${index}` })).status).toBe(201);
    expect(await register(project.id, { token: 'junk-late' })).toEqual({ status: 400, body: { errors: [anonymousQuotaFull(project.id, anonymous)] } });
    // The project's key still registers: strangers cannot take its room.
    for (let index = 0; index < LIMITS.quota - anonymous; index += 1) expect((await register(project.id, { token: `own-${index}` }, { key: project.api_key })).status).toBe(201);
    const full = await register(project.id, { token: 'own-late' }, { key: project.api_key });
    expect(full.status).toBe(400);
    expect(full.body?.errors).toEqual([expect.stringContaining(`holds its quota of ${LIMITS.quota} devices`)]);

    // The project deletes a junk device: it stops counting, toward both bounds.
    await waitFor('the devices projected', async () => (await listed(project.api_key)).length === LIMITS.quota);
    expect((await harness.request('DELETE', `/api/v1/devices/${deviceIdFor(project.id, token('junk-0'))}`, { key: project.api_key, headers: from() })).status).toBe(204);
    await waitFor('the deleted device no longer counted', async () => (await register(project.id, { token: 'own-late' }, { key: project.api_key })).status === 201);
    // A deleted device that registers again is a new device for the quota: the project is full again.
    expect((await register(project.id, { token: 'junk-0' })).status).toBe(400);
  });

  it('new anonymous devices have their own budget: past it, existing devices and the key keep theirs', async () => {
    const project = await harness.createProject('new-device-budget');
    await harness.herald('projects', 'device-quota', project.id, '100');
    expect((await register(project.id, { token: 'real-phone' })).status).toBe(201);
    for (let index = 1; index < LIMITS.newDevicesPerProject; index += 1) expect((await register(project.id, { token: `junk-${index}` })).status).toBe(201);
    const limited = await register(project.id, { token: 'junk-late' });
    expect(limited.status).toBe(429);
    expect(limited.body?.errors).toEqual([expect.stringMatching(/^too many requests for new devices of this project; retry in \d+ s$/)]);
    // The key registers new devices whatever strangers did.
    expect((await register(project.id, { token: 'from-the-server' }, { key: project.api_key })).status).toBe(201);
    await waitFor('the real phone projected', async () => (await listed(project.api_key)).some(withToken('real-phone')));
    // The real phone's own requests use the project's budget (with the key's request), which no new device spent.
    for (let index = 0; index < LIMITS.perProject - 2; index += 1) expect((await register(project.id, { token: 'real-phone', metadata: { n: String(index) } })).status).toBe(201);
    expect((await patch(project.id, token('real-phone'), { plan: 'pro' })).status).toBe(200);
  });
});

describe('a user id is a write key only with proof', () => {
  it('PATCH by external_id needs the key or a valid identifier_hash; without either the user is not found', async () => {
    const project = await harness.createProject('external-id-writes');
    await harness.herald('projects', 'device-quota', project.id, '100');
    expect((await register(project.id, { token: 'alice-phone', external_id: 'alice' }, { key: project.api_key })).status).toBe(201);
    await waitFor('alice’s phone projected', async () => (await listed(project.api_key)).length === 1);
    const unknown = await patch(project.id, 'nobody', { plan: 'free' });
    expect(unknown.status).toBe(404);
    // Without proof a user id matches nothing, so the answer is the unknown one: it tells nothing about alice either.
    expect(await patch(project.id, 'alice', { plan: 'free' })).toEqual({ status: 404, body: { errors: [`identifier alice matches no device in project ${project.id}`] } });
    expect(await patch(project.id, 'alice', { plan: 'pro' }, { key: project.api_key })).toEqual({ status: 200, body: { data: { updated: 1 } } });

    const { secret } = JSON.parse(await harness.herald('projects', 'identity-verification', project.id, 'on', '--json')) as { secret: string };
    expect(await patch(project.id, 'alice', { plan: 'team' }, { hash: hashOf(secret, 'alice') })).toEqual({ status: 200, body: { data: { updated: 1 } } });
    await waitFor('the proven write projected', async () => (await listed(project.api_key))[0]?.metadata.plan === 'team');
  });

  it('with identity verification on, a verified write reaches only devices whose registration proved the identifier', async () => {
    const project = await harness.createProject('proven-identifiers');
    await harness.herald('projects', 'device-quota', project.id, '1000');
    const { secret } = JSON.parse(await harness.herald('projects', 'identity-verification', project.id, 'on', '--json')) as { secret: string };
    const proof = hashOf(secret, 'alice');
    expect((await register(project.id, { token: 'alice-phone', identifiers: { user: 'alice' }, identifier_hashes: { user: proof } })).status).toBe(201);
    // Strangers claim alice's id without proof (as many as the new-device budget lets them; 101 made her writes fail with 400): stored, never reached.
    for (let index = 0; index < LIMITS.newDevicesPerProject - 2; index += 1) {
      expect((await register(project.id, { token: `claim-${index}`, identifiers: { user: 'alice' } })).status).toBe(201);
    }
    expect((await register(project.id, { token: 'forged', identifiers: { user: 'alice' }, identifier_hashes: { user: hashOf(secret, 'mallory') } })).status).toBe(201);
    await waitFor('the devices projected', async () => (await listed(project.api_key)).some(withToken('forged')));
    expect(await patch(project.id, 'alice', { plan: 'pro' }, { hash: proof })).toEqual({ status: 200, body: { data: { updated: 1 } } });
    await waitFor('alice’s write projected', async () => (await listed(project.api_key)).find(withToken('alice-phone'))?.metadata.plan === 'pro');
    for (const label of ['forged', 'claim-0']) expect((await listed(project.api_key)).find(withToken(label))?.metadata).toEqual({});
  });

  it('the OpenAPI text says what identifier matches and what identifier_hash is, as the code does', async () => {
    const openapi = (await harness.request('GET', '/docs/json')).body as {
      paths: Record<string, { patch: { description: string; parameters: Array<{ name: string; description?: string }> } }>;
    };
    const operation = openapi.paths['/api/v1/metadata']!.patch;
    expect(operation.parameters.find((parameter) => parameter.name === 'identifier_hash')?.description).toContain('`"identifier:" + identifier`');
    expect(operation.description).toContain("it matches a device's `external_id` (its user) only with proof");
  });
});

describe('one token, one active device', () => {
  it('refuses with 409 a refresh onto a token another active device holds', async () => {
    const project = await harness.createProject('token-refresh');
    await harness.herald('projects', 'device-quota', project.id, '100');
    expect((await register(project.id, { token: 'token-a' })).status).toBe(201);
    expect((await register(project.id, { token: 'token-b' })).status).toBe(201);
    await waitFor('both devices projected', async () => (await listed(project.api_key)).length === 2);
    const refresh = await register(project.id, { token: 'token-b', device_id: deviceIdFor(project.id, token('token-a')), previous_token: token('token-a') });
    expect(refresh).toEqual({
      status: 409,
      body: { errors: ['token is held by another active device of this project: a token belongs to one device (delete that device first, with the API key)'] },
    });
    const withKey = await register(project.id, { token: 'token-b', device_id: deviceIdFor(project.id, token('token-a')) }, { key: project.api_key });
    expect(withKey.status).toBe(409);
  });
});

describe('every failed key check spends the address budget', () => {
  it('POST /api/v1/devices with a key that is not valid counts, and the address is then refused everywhere', async () => {
    const project = await harness.createProject('bad-keys');
    const address = '198.18.44.1';
    for (let index = 0; index < LIMITS.unauthenticated; index += 1) {
      expect((await register(project.id, { token: `t-${index}` }, { key: `hrld_bad${index}`, address })).status).toBe(401);
    }
    const limited = await register(project.id, { token: 't-late' }, { key: 'hrld_bad-late', address });
    expect(limited.status).toBe(429);
    expect(limited.body?.errors).toEqual([expect.stringMatching(/without a valid API key from this address/)]);
    expect((await harness.request('GET', '/api/v1/topics', { key: project.api_key, headers: { 'x-forwarded-for': address } })).status).toBe(429);
    // Without a key the device's own registration still goes through: only key checks are counted.
    expect((await register(project.id, { token: 't-anonymous' }, { address })).status).toBe(201);
  });
});
