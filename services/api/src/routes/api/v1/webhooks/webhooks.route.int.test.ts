import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInjectHarness, type InjectHarness } from '@herald/testing';
import { WebhookStore } from '@herald/admin';
import { buildApp } from '../../../../build-app.ts';

/** The webhook routes over the real store: validation naming fields, project scope, secrets shown once, rotation, caps, replay checks. */
let harness: InjectHarness;
beforeAll(async () => {
  harness = await startInjectHarness('webhooks-route', (deps, logger) => buildApp({ ...deps, webhooks: { perProject: 3, local: false } }, logger));
});
afterAll(async () => {
  await harness?.close();
});

type Hook = { id: string; secret_rotation: unknown; event_types: string[]; position: unknown; replay_pending: boolean; status: { lag: number; last_failure: unknown } };

describe('webhook routes', () => {
  it('creates with the secret shown once, lists, gets, patches and deletes; another project sees 404', async () => {
    const project = await harness.createProject('hooks-a');
    const other = await harness.createProject('hooks-b');
    const created = await harness.request('POST', '/api/v1/webhooks', { key: project.api_key, body: { url: 'https://hooks.example.com/in', event_types: ['DeliveryReported'] } });
    expect(created.status).toBe(201);
    const hook = created.body!.data as Hook;
    expect(created.body!.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(hook).toMatchObject({ event_types: ['DeliveryReported'], position: null, replay_pending: false, paused: false, secret_rotation: null, status: { lag: 0, last_failure: null } });
    const listed = await harness.request('GET', '/api/v1/webhooks', { key: project.api_key });
    expect((listed.body!.data as Hook[]).map((item) => item.id)).toEqual([hook.id]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body!.secret as string);
    expect(JSON.stringify((await harness.request('GET', `/api/v1/webhooks/${hook.id}`, { key: project.api_key })).body)).not.toContain('whsec_');

    for (const [method, path, body] of [
      ['GET', `/api/v1/webhooks/${hook.id}`, undefined],
      ['PATCH', `/api/v1/webhooks/${hook.id}`, { url: 'https://evil.example.com/' }],
      ['PATCH', `/api/v1/webhooks/${hook.id}`, { paused: true }],
      ['DELETE', `/api/v1/webhooks/${hook.id}`, undefined],
      ['POST', `/api/v1/webhooks/${hook.id}/replay`, { from: '2020-01-01T00:00:00Z' }],
    ] as const) {
      expect(await harness.request(method, path, { key: other.api_key, ...(body === undefined ? {} : { body }) }), `${method} ${path}`).toEqual({ status: 404, body: { errors: [`webhook ${hook.id} does not exist`] } });
    }
    expect((await harness.request('GET', '/api/v1/webhooks', { key: other.api_key })).body).toEqual({ data: [] });

    const patched = await harness.request('PATCH', `/api/v1/webhooks/${hook.id}`, { key: project.api_key, body: { event_types: ['NotificationOpened', 'DeviceDeactivated'], batch: { max_events: 10, max_wait_ms: 500 } } });
    expect(patched.status).toBe(200);
    expect(patched.body!.secret).toBeUndefined();
    expect((patched.body!.data as Hook).event_types).toEqual(['NotificationOpened', 'DeviceDeactivated']);
    expect((await harness.request('PATCH', `/api/v1/webhooks/${hook.id}`, { key: project.api_key, body: { paused: true } })).body!.data).toMatchObject({ paused: true, event_types: ['NotificationOpened', 'DeviceDeactivated'] });
    expect((await harness.request('GET', `/api/v1/webhooks/${hook.id}`, { key: project.api_key })).body!.data).toMatchObject({ paused: true });
    expect((await harness.request('PATCH', `/api/v1/webhooks/${hook.id}`, { key: project.api_key, body: { paused: false } })).body!.data).toMatchObject({ paused: false });
    expect(await harness.request('PATCH', `/api/v1/webhooks/${hook.id}`, { key: project.api_key, body: { paused: 'yes' } })).toMatchObject({ status: 400 });
    // Live Activity pushes and their outcomes are event stream types too.
    const live = await harness.request('PATCH', `/api/v1/webhooks/${hook.id}`, { key: project.api_key, body: { event_types: ['LiveActivityRequested', 'LiveActivityReported'] } });
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect((live.body!.data as Hook).event_types).toEqual(['LiveActivityRequested', 'LiveActivityReported']);
    expect((await harness.request('DELETE', `/api/v1/webhooks/${hook.id}`, { key: project.api_key })).status).toBe(204);
    expect((await harness.request('GET', `/api/v1/webhooks/${hook.id}`, { key: project.api_key })).status).toBe(404);
  });

  it('rotates: a new secret, shown once; the previous one keeps signing for the overlap', async () => {
    const project = await harness.createProject('hooks-rotate');
    const created = await harness.request('POST', '/api/v1/webhooks', { key: project.api_key, body: { url: 'https://hooks.example.com/in' } });
    const id = (created.body!.data as Hook).id;
    const rotated = await harness.request('PATCH', `/api/v1/webhooks/${id}`, { key: project.api_key, body: { rotate_secret: true, previous_secret_ttl_s: 3600 } });
    expect(rotated.status).toBe(200);
    expect(rotated.body!.secret).toMatch(/^whsec_/);
    expect(rotated.body!.secret).not.toBe(created.body!.secret);
    expect((rotated.body!.data as Hook).secret_rotation).toEqual({ previous_expires_at: expect.any(String) as string });
    const stored = await new WebhookStore(harness.env.mongo.db).get(project.id, id);
    expect(stored!.secrets.map((secret) => secret.value)).toEqual([rotated.body!.secret, created.body!.secret]);
    expect(stored!.secrets[1]!.expires_at!.getTime() - Date.now()).toBeGreaterThan(3_500_000);
    expect(await harness.request('PATCH', `/api/v1/webhooks/${id}`, { key: project.api_key, body: { previous_secret_ttl_s: 10 } })).toEqual({ status: 400, body: { errors: ['previous_secret_ttl_s is only allowed with rotate_secret: true'] } });
  });

  it('refuses bad input naming the field, unsafe URLs, and more than the cap', async () => {
    const project = await harness.createProject('hooks-errors');
    const post = (body: unknown) => harness.request('POST', '/api/v1/webhooks', { key: project.api_key, body });
    expect((await post({})).body).toEqual({ errors: ['url is required'] });
    expect(await post({ url: 'http://hooks.example.com/in' })).toEqual({ status: 400, body: { errors: ['url must use https (http only to a loopback host in local mode)'] } });
    expect(await post({ url: 'http://127.0.0.1:8080/in' })).toEqual({
      status: 400,
      body: { errors: ['url must use https (http only to a loopback host in local mode)', 'url must name its host, not an IP address (a loopback address only in local mode)'] },
    });
    for (const url of ['https://169.254.169.254/latest/meta-data', 'https://[::7f00:1]/in', 'https://[::a9fe:a9fe]/in', 'https://93.184.216.34/in']) {
      expect(await post({ url })).toEqual({ status: 400, body: { errors: ['url must name its host, not an IP address (a loopback address only in local mode)'] } });
    }
    expect(await post({ url: 'https://user:pw@hooks.example.com/in' })).toEqual({ status: 400, body: { errors: ['url must not carry credentials (user:password@)'] } });
    expect((await post({ url: `https://hooks.example.com/${'a'.repeat(2048)}` })).status).toBe(400);
    expect((await post({ url: 'https://hooks.example.com/', event_types: ['DeviceRegistered'] })).status).toBe(400);
    expect((await post({ url: 'https://hooks.example.com/', event_types: [] })).status).toBe(400);
    expect((await post({ url: 'https://hooks.example.com/', batch: { max_events: 1000, max_wait_ms: 0 } })).status).toBe(400);
    expect((await harness.request('GET', '/api/v1/webhooks')).status).toBe(401);
    for (let i = 0; i < 3; i += 1) expect((await post({ url: `https://hooks.example.com/${i}` })).status).toBe(201);
    expect(await post({ url: 'https://hooks.example.com/4' })).toEqual({ status: 409, body: { errors: ['a project has at most 3 webhooks: delete one first'] } });
  });

  it('replays from a time, or from a position no later than its own', async () => {
    const project = await harness.createProject('hooks-replay');
    const id = ((await harness.request('POST', '/api/v1/webhooks', { key: project.api_key, body: { url: 'https://hooks.example.com/in' } })).body!.data as Hook).id;
    const replay = (body: unknown) => harness.request('POST', `/api/v1/webhooks/${id}/replay`, { key: project.api_key, body });
    expect((await replay({ position: { 'herald.notification-events': { 0: 0 } } })).status).toBe(409);
    expect(await replay({ from: '2999-01-01T00:00:00Z' })).toEqual({ status: 400, body: { errors: ['from must not be in the future'] } });
    expect((await replay({})).status).toBe(400);
    const accepted = await replay({ from: '2020-01-01T00:00:00Z' });
    expect(accepted.status).toBe(202);
    expect((accepted.body!.data as Hook).replay_pending).toBe(true);
    // As the dispatcher leaves it: started, at offset 5 of partition 0.
    const store = new WebhookStore(harness.env.mongo.db);
    const { generation } = (await store.get(project.id, id))!;
    await store.progress(id, generation, { position: [{ topic: 'herald.notification-events', partition: 0, offset: 5 }, { topic: 'herald.notification-events', partition: 1, offset: 7 }], replay: null });
    expect(await replay({ position: { 'herald.notification-events': { 0: 6 } } })).toEqual({ status: 400, body: { errors: ["position.herald.notification-events.0 must not be past the webhook's position (5)"] } });
    expect((await replay({ position: { 'herald.device-events': { 0: 1 } } })).status).toBe(400);
    expect((await replay({ position: { 'herald.notification-events': { 0: 2 } } })).status).toBe(202);
    // Partition 1, not named, keeps its position.
    expect((await store.get(project.id, id))!.replay).toEqual({ position: [{ topic: 'herald.notification-events', partition: 0, offset: 2 }, { topic: 'herald.notification-events', partition: 1, offset: 7 }] });
  });
});
