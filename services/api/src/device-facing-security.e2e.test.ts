import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, topicIdFor, TOPICS } from '@herald/events';
import { startApiHarness, waitFor, waitForProjectionCaughtUp, type ApiHarness, type ApiResponse, apnsToken } from '@herald/testing';

/**
 * What a stranger can do with the endpoints that take no API key
 * (POST /api/v1/devices, PATCH /api/v1/metadata): the attacks of issue 9,
 * each refused, with the victim's data checked through the bearer listing.
 */
let harness: ApiHarness;
type DeviceRow = { id: string; token: string; metadata: Record<string, string>; topics: string[] };

beforeAll(async () => {
  // The largest devices the field limits allow (the amplification case below): the byte bound at its maximum.
  harness = await startApiHarness('device-security', { apiEnv: { DEVICE_MAX_BYTES: '262144' } });
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

const register = (body: Record<string, unknown>, key?: string) => harness.request('POST', '/api/v1/devices', { body, key });
const patch = (projectId: string, identifier: string, metadata: Record<string, string | null>) =>
  harness.request('PATCH', `/api/v1/metadata?project_id=${encodeURIComponent(projectId)}&identifier=${encodeURIComponent(identifier)}`, { body: { metadata } });
async function devicesOf(project: { api_key: string }): Promise<DeviceRow[]> {
  return (await harness.request('GET', '/api/v1/devices?limit=100', { key: project.api_key })).body?.data as DeviceRow[];
}
async function timed(call: () => Promise<ApiResponse>): Promise<{ response: ApiResponse; ms: number }> {
  const started = performance.now();
  const response = await call();
  return { response, ms: performance.now() - started };
}

describe('no re-pointing a device without proof', () => {
  it('refuses another token for an existing device_id unless previous_token or the bearer key proves it', async () => {
    const project = await harness.createProject('hijack');
    const other = await harness.createProject('hijack-other');
    const victim = (await register({ project_id: project.id, token: apnsToken('victim-token'), platform: 'ios', metadata: { name: 'victim' } })).body!.data as DeviceRow;
    await waitFor('the victim listed', async () => ((await devicesOf(project)).length === 1 ? true : undefined));

    const forbidden = { status: 403, body: { errors: ["previous_token must equal the device's current token (or send the project's bearer key) to give device_id a new token"] } };
    const attempt = { project_id: project.id, device_id: victim.id, token: apnsToken('attacker-token'), platform: 'ios' };
    expect(await register(attempt)).toEqual(forbidden);
    expect(await register({ ...attempt, previous_token: apnsToken('attacker-token') })).toEqual(forbidden);
    expect(await register({ ...attempt, previous_token: apnsToken('victim-toke') })).toEqual(forbidden);
    expect(await register(attempt, other.api_key)).toEqual(forbidden);
    expect(await register(attempt, 'not-a-key')).toMatchObject({ status: 401 });
    // Re-registering the device's own token needs no proof and changes nothing.
    expect(await register({ project_id: project.id, device_id: victim.id, token: apnsToken('victim-token'), platform: 'ios' })).toMatchObject({ status: 201, body: { data: { id: victim.id } } });

    // A write to the victim's own stream after the attempts: once it is projected, anything the attempts wrote would be too.
    expect(await patch(project.id, victim.id, { marker: 'after-attempts' })).toEqual({ status: 200, body: { data: { updated: 1 } } });
    await waitFor('the marker projected', async () => ((await devicesOf(project))[0]?.metadata.marker === 'after-attempts' ? true : undefined));
    expect((await devicesOf(project)).map(({ id, token }) => ({ id, token }))).toEqual([{ id: victim.id, token: apnsToken('victim-token') }]);

    // With proof the refresh goes through: the device's current token, or the project's bearer key.
    expect(await register({ ...attempt, token: apnsToken('refreshed-1'), previous_token: apnsToken('victim-token') })).toMatchObject({ status: 201, body: { data: { id: victim.id, token: apnsToken('refreshed-1') } } });
    await waitFor('the first refresh projected', async () => ((await devicesOf(project))[0]?.token === apnsToken('refreshed-1') ? true : undefined));
    expect(await register({ ...attempt, token: apnsToken('refreshed-2') }, project.api_key)).toMatchObject({ status: 201, body: { data: { id: victim.id, token: apnsToken('refreshed-2') } } });
    await waitFor('the bearer refresh projected', async () => ((await devicesOf(project))[0]?.token === apnsToken('refreshed-2') ? true : undefined));
  });
});

describe('PATCH /api/v1/metadata reveals nothing', () => {
  it('answers a count, never a token, identifier or metadata', async () => {
    const project = await harness.createProject('leak');
    await register({ project_id: project.id, token: 'secret-push-token', platform: 'android', identifiers: { email: 'a@example.com' }, metadata: { secret: 's3' } });
    await waitFor('the device listed', async () => ((await devicesOf(project)).length === 1 ? true : undefined));
    const response = await patch(project.id, 'a@example.com', { plan: 'pro' });
    expect(response).toEqual({ status: 200, body: { data: { updated: 1 } } });
    expect(JSON.stringify(response.body)).not.toMatch(/secret-push-token|s3|example\.com/);
  });
});

describe('bounded inputs', () => {
  const entries = (count: number, value = 'v') => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, value]));

  it.each([
    ['65 metadata entries', { metadata: entries(65) }, 'metadata must have at most 64 keys'],
    ['65 identifiers', { identifiers: entries(65) }, 'identifiers must have at most 64 keys'],
    ['a 65-character key', { metadata: { ['k'.repeat(65)]: 'v' } }, `metadata key "${'k'.repeat(65)}" is not allowed`],
    ['a 1,025-character value', { metadata: { k: 'v'.repeat(1025) } }, 'metadata.k must be at most 1024 characters'],
    ['21 topics', { topics: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'topics must contain at most 20 items'],
  ])('registration with %s → 400 naming the limit', async (_label, extra, message) => {
    const project = await harness.createProject('limits');
    expect(await register({ project_id: project.id, token: apnsToken('limit-token'), platform: 'ios', ...extra })).toEqual({ status: 400, body: { errors: [message] } });
  });

  it("refuses a merge that would leave a device more than 64 metadata keys; nothing is written", async () => {
    const project = await harness.createProject('merge-limit');
    await register({ project_id: project.id, token: apnsToken('full-token'), platform: 'ios', metadata: entries(60) });
    await waitFor('the device listed', async () => ((await devicesOf(project)).length === 1 ? true : undefined));
    expect(await patch(project.id, apnsToken('full-token'), entries(5, 'new'))).toMatchObject({ status: 200 }); // k0..k4 replaced: still 60
    expect(await patch(project.id, apnsToken('full-token'), { a: '1', b: '2', c: '3', d: '4', e: '5' })).toEqual({
      status: 400,
      body: { errors: ['metadata would leave a device with 65 keys; a device keeps at most 64'] },
    });
  });

  it('an identifier shared by more than 100 devices is refused fast; a concurrent bearer request answers within 1 s', async () => {
    const project = await harness.createProject('amplification');
    const heavy = entries(64, 'x'.repeat(1000));
    for (let i = 0; i < 101; i += 1) {
      const response = await register({ project_id: project.id, token: `amp-${i}`, platform: 'android', identifiers: { user_id: 'shared' }, metadata: heavy });
      expect(response.status).toBe(201);
    }
    // The PATCH finds the documents, which the projector writes after the counters a listing's count reads: the
    // whole projection catches up, then both are there.
    await waitForProjectionCaughtUp(harness.env.kafka, 'devices', TOPICS.deviceEvents, 60_000);
    const listing = await harness.request('GET', '/api/v1/devices?limit=1', { key: project.api_key });
    expect((listing.body?.pagination as { count: number } | undefined)?.count).toBe(101);

    const [amplified, bearer] = await Promise.all([
      timed(() => patch(project.id, 'shared', heavy)),
      timed(() => harness.request('GET', '/api/v1/topics', { key: project.api_key })),
    ]);
    expect(amplified.response).toEqual({ status: 400, body: { errors: ['identifier matches more than 100 devices; update them in smaller groups'] } });
    expect(bearer.response.status).toBe(200);
    expect(bearer.ms).toBeLessThan(1000);
    expect(amplified.ms).toBeLessThan(2000);
  });

  it('a project creates at most 10,000 topics; subscribing to existing ones stays allowed', async () => {
    const project = await harness.createProject('topic-quota');
    const names = Array.from({ length: 10_000 }, (_, i) => `topic-${i}`);
    await harness.env.producer.publish(names.map((name) => createEvent('TopicCreated', { topic_id: topicIdFor(project.id, name), name, origin: 'project' }, { project_id: project.id })));
    await waitFor('10,000 topics projected', async () => {
      const listing = await harness.request('GET', '/api/v1/topics?limit=1', { key: project.api_key });
      return (listing.body?.pagination as { count: number } | undefined)?.count === 10_000 ? true : undefined;
    }, 60_000);

    expect(await harness.request('POST', '/api/v1/topics', { key: project.api_key, body: { name: 'one-too-many' } })).toEqual({
      status: 400,
      body: { errors: ['name would create 1 new topics in a project that has 10000; a project has at most 10000 topics'] },
    });
    // Subscribing to topics that exist creates none, so it is allowed.
    expect(await register({ project_id: project.id, token: apnsToken('quota-token'), platform: 'ios', topics: ['topic-1', 'topic-2'] })).toMatchObject({ status: 201 });
  });
});
