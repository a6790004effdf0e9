import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceIdFor } from '@herald/events';
import { generateSecretKey, parseSecretKey, WebPushKeyStore } from '@herald/admin';
import { startApiHarness, waitFor, type ApiHarness, type RequestOptions } from '@herald/testing';

/** Web Push registration and the application server key, through the API process (docs/guides/web-push.md). */
let harness: ApiHarness;
let keys: WebPushKeyStore;
const request = (method: string, path: string, options?: RequestOptions) => harness.request(method, path, options);

beforeAll(async () => {
  harness = await startApiHarness('webpush');
  keys = new WebPushKeyStore(harness.env.mongo.db, parseSecretKey(generateSecretKey()));
});

afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') } };
}

const errors = (response: { body: unknown }) => (response.body as { errors: string[] }).errors;

describe('Web Push keys and registration', () => {
  it('gives the current application server key to anyone, and 404 for a project without keys', async () => {
    const project = await harness.createProject('webpush-key');
    const bare = await harness.createProject('webpush-bare');
    const summary = await keys.generate(project.id, 'mailto:push@example.com');
    const current = summary.keys[0]!;
    const answer = await request('GET', `/api/v1/webpush/public-key?project_id=${project.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { public_key: current.public_key, key_id: current.id } });

    const none = await request('GET', `/api/v1/webpush/public-key?project_id=${bare.id}`);
    expect(none.status).toBe(404);
    expect(errors(none)).toEqual([expect.stringContaining('has no Web Push keys')]);
    expect((await request('GET', '/api/v1/webpush/public-key')).status).toBe(400);
    // A rotation shows within the cache's 5 seconds.
    const rotated = await keys.generate(project.id, undefined);
    await waitFor('the rotated key', async () => {
      const response = await request('GET', `/api/v1/webpush/public-key?project_id=${project.id}`);
      return (response.body as { data?: { key_id: string } }).data?.key_id === rotated.current_key_id ? response : undefined;
    });
  });

  it("registers a browser's subscription as a web device whose id is derived from (project, endpoint)", async () => {
    const project = await harness.createProject('webpush-register');
    await keys.generate(project.id, 'mailto:push@example.com');
    const subscription = browserSubscription('https://fcm.googleapis.com/fcm/send/abc');
    const registered = await request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'web', subscription, metadata: { site: 'shop' } } });
    expect(registered.status).toBe(201);
    expect((registered.body as { data: unknown }).data).toMatchObject({ id: deviceIdFor(project.id, subscription.endpoint), token: subscription.endpoint, platform: 'web', status: 'active', metadata: { site: 'shop' } });

    // Registering the same subscription again is the same device.
    const again = await request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'web', subscription } });
    expect((again.body as { data: { id: string } }).data.id).toBe(deviceIdFor(project.id, subscription.endpoint));

    const listed = await waitFor('the web device listed', async () => {
      const response = await request('GET', `/api/v1/devices?token=${encodeURIComponent(subscription.endpoint)}`, { key: project.api_key });
      return (response.body as { data?: unknown[] }).data?.length === 1 ? response : undefined;
    });
    expect((listed.body as { data: unknown[] }).data[0]).toMatchObject({ platform: 'web', token: subscription.endpoint });
  });

  it('a new endpoint moves the device only with proof: the old endpoint as previous_token, or the bearer key', async () => {
    const project = await harness.createProject('webpush-resubscribe');
    await keys.generate(project.id, 'mailto:push@example.com');
    const first = browserSubscription('https://fcm.googleapis.com/fcm/send/first');
    const registered = await request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'web', subscription: first } });
    const deviceId = (registered.body as { data: { id: string } }).data.id;
    await waitFor('the device projected', async () => ((await request('GET', `/api/v1/devices/${deviceId}`, { key: project.api_key })).status === 200 ? true : undefined));

    const second = browserSubscription('https://fcm.googleapis.com/fcm/send/second');
    const refused = await request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'web', subscription: second, device_id: deviceId } });
    expect(refused.status).toBe(403);
    const moved = await request('POST', '/api/v1/devices', {
      body: { project_id: project.id, platform: 'web', subscription: second, device_id: deviceId, previous_token: first.endpoint },
    });
    expect(moved.status).toBe(201);
    expect((moved.body as { data: unknown }).data).toMatchObject({ id: deviceId, token: second.endpoint });
  });

  it('names the field of a subscription that cannot be pushed to, and refuses web devices of a project without keys with 422', async () => {
    const project = await harness.createProject('webpush-refusals');
    await keys.generate(project.id, 'mailto:push@example.com');
    const good = browserSubscription('https://fcm.googleapis.com/fcm/send/ok');
    const register = (body: Record<string, unknown>) => request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'web', ...body } });

    const compressed = createECDH('prime256v1');
    compressed.generateKeys();
    const badKey = await register({ subscription: { ...good, keys: { ...good.keys, p256dh: compressed.getPublicKey('base64url', 'compressed') } } });
    expect(badKey.status).toBe(400);
    expect(errors(badKey)).toEqual([expect.stringMatching(/^subscription\.keys\.p256dh must be base64url of an uncompressed P-256 public key/)]);
    const badAuth = await register({ subscription: { ...good, keys: { ...good.keys, auth: randomBytes(8).toString('base64url') } } });
    expect(errors(badAuth)).toEqual(['subscription.keys.auth must be base64url of 16 bytes']);
    // Not local mode: no http, no loopback, no private address.
    // Nor a host that is no push service's (WEBPUSH_ENDPOINT_HOSTS): Herald would post every campaign there.
    for (const endpoint of ['http://fcm.googleapis.com/fcm/send/x', 'https://127.0.0.1:8443/x', 'https://10.1.2.3/x', 'https://victim.example/hook']) {
      const response = await register({ subscription: { ...good, endpoint } });
      expect({ endpoint, status: response.status, errors: errors(response) }).toEqual({ endpoint, status: 400, errors: [expect.stringMatching(/^subscription\.endpoint must/)] });
    }
    expect(errors(await register({ subscription: good, token: 'x' }))).toEqual([expect.stringMatching(/^token is not used for platform web/)]);
    expect(errors(await register({}))).toEqual([expect.stringMatching(/^subscription is required for platform web/)]);
    expect(errors(await request('POST', '/api/v1/devices', { body: { project_id: project.id, platform: 'ios' } }))).toEqual(['token is required for platform ios']);

    const bare = await harness.createProject('webpush-no-keys');
    const noKeys = await request('POST', '/api/v1/devices', { body: { project_id: bare.id, platform: 'web', subscription: good } });
    expect(noKeys.status).toBe(422);
    expect(errors(noKeys)).toEqual([expect.stringContaining('has no Web Push keys')]);
  });
});
