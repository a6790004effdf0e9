import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceIdFor } from '@herald/events';
import { startApiHarness, waitFor, type ApiHarness, type RequestOptions, apnsToken } from '@herald/testing';

/**
 * The walking skeleton end to end, each part its own process as in
 * production: HTTP register → Kafka → projector → MongoDB → HTTP list.
 */
let harness: ApiHarness;
const request = (method: string, path: string, options?: RequestOptions) => harness.request(method, path, options);
const herald = (...args: string[]) => harness.herald(...args);

async function createProject(name: string): Promise<{ id: string; api_key: string }> {
  const stdout = await herald('projects', 'create', name, '--json');
  expect(stdout.trim()).toMatch(/^\{"id":"[^"]+","api_key":"[^"]+"\}$/);
  return JSON.parse(stdout) as { id: string; api_key: string };
}

beforeAll(async () => {
  harness = await startApiHarness('devices');
});

afterAll(async () => {
  // Both services drain and exit cleanly on SIGTERM.
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

describe('device registration and listing', () => {
  it('registers a device and lists it once projected', async () => {
    const project = await createProject('skeleton');
    const registered = await request('POST', '/api/v1/devices', {
      body: { project_id: project.id, token: apnsToken('apns-token-1'), platform: 'ios', metadata: { plan: 'pro' }, identifiers: { user_id: 'u-1' } },
    });
    expect(registered.status).toBe(201);
    const device = (registered.body as { data: Record<string, unknown> }).data;
    expect(device).toMatchObject({ id: deviceIdFor(project.id, apnsToken('apns-token-1')), token: apnsToken('apns-token-1'), platform: 'ios', status: 'active', metadata: { plan: 'pro' }, identifiers: { user_id: 'u-1' } });

    const listed = await waitFor('the device in the listing', async () => {
      const response = await request('GET', '/api/v1/devices', { key: project.api_key });
      return (response.body?.data as unknown[] | undefined)?.length === 1 ? response : undefined;
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      data: [expect.objectContaining({ id: device.id, token: apnsToken('apns-token-1'), status: 'active', metadata: { plan: 'pro' } })],
      pagination: { count: 1, page: 1, pages: 1, from: 1, to: 1, last: 1 },
    });
  });

  it('registering one token twice yields one device; a project never sees another project’s devices', async () => {
    const [first, second] = await Promise.all([createProject('first'), createProject('second')]);
    const body = { project_id: first.id, token: 'fcm-token-dup', platform: 'android' };
    const [a, b] = await Promise.all([request('POST', '/api/v1/devices', { body }), request('POST', '/api/v1/devices', { body })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((a.body as { data: { id: string } }).data.id).toBe((b.body as { data: { id: string } }).data.id);
    await request('POST', '/api/v1/devices', { body: { project_id: second.id, token: 'fcm-token-other', platform: 'android' } });

    // Each project's device is awaited in its listing: a listing answers 200 with
    // an empty page until the projector has caught up, and its count (counters
    // written before the documents) may show a device its page does not list yet.
    const listed = (key: string, description: string) =>
      waitFor(description, async () => {
        const response = await request('GET', '/api/v1/devices', { key });
        return (response.body?.pagination as { count: number }).count === 1 && (response.body?.data as unknown[]).length === 1 ? response : undefined;
      });
    await listed(second.api_key, 'the second project’s device');
    const firstList = await listed(first.api_key, 'one device in the first project');
    expect((firstList.body!.data as Array<{ token: string }>).map((d) => d.token)).toEqual(['fcm-token-dup']);
    const secondList = await request('GET', '/api/v1/devices', { key: second.api_key });
    expect((secondList.body!.data as Array<{ token: string }>).map((d) => d.token)).toEqual(['fcm-token-other']);
  });

  it('pages in creation order and filters by status', async () => {
    const project = await createProject('paging');
    for (const token of [apnsToken('t-1'), apnsToken('t-2'), apnsToken('t-3')]) {
      expect((await request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform: 'ios' } })).status).toBe(201);
    }
    // Counted and listed: the count (counters) may lead the documents a page reads.
    await waitFor('three devices', async () => (await request('GET', '/api/v1/devices', { key: project.api_key })).body?.pagination as { count: number } | undefined, 20_000).then(
      async () =>
        waitFor('count 3, three listed', async () => {
          const { body } = await request('GET', '/api/v1/devices', { key: project.api_key });
          return (body!.pagination as { count: number }).count === 3 && (body!.data as unknown[]).length === 3;
        }),
    );
    const page2 = await request('GET', '/api/v1/devices?limit=2&page=2', { key: project.api_key });
    expect(page2.body).toMatchObject({ data: [expect.objectContaining({ token: apnsToken('t-3') })], pagination: { count: 3, page: 2, pages: 2, from: 3, to: 3, last: 2 } });
    const past = await request('GET', '/api/v1/devices?limit=2&page=5', { key: project.api_key });
    expect(past.body).toEqual({ data: [], pagination: { count: 3, page: 5, pages: 2, from: 0, to: 0, last: 2 } });
    const inactive = await request('GET', '/api/v1/devices?status=inactive', { key: project.api_key });
    expect(inactive.body).toEqual({ data: [], pagination: { count: 0, page: 1, pages: 1, from: 0, to: 0, last: 1 } });
    const clamped = await request('GET', '/api/v1/devices?limit=1000', { key: project.api_key });
    expect((clamped.body!.data as unknown[]).length).toBe(3);
  });
});

describe('bad input never yields a 500', () => {
  let project: { id: string; api_key: string };
  beforeAll(async () => {
    project = await createProject('errors');
  });

  it.each([
    ['a missing token', { platform: 'ios' }, 'token is required for platform ios'],
    ['an unknown platform', { token: 't', platform: 'symbian' }, 'platform must be one of: ios, android, web, huawei'],
    ['a token for a web device', { token: 't', platform: 'web' }, "token is not used for platform web: send the browser's subscription (PushSubscription.toJSON()) as subscription"],
    ['a non-string metadata value', { token: 't', platform: 'ios', metadata: { plan: 3 } }, 'metadata.plan must be a string'],
    ['an unknown field', { token: 't', platform: 'ios', colour: 'red' }, 'colour is not an allowed field'],
    ['an empty token', { token: '', platform: 'ios' }, 'token must not be empty'],
  ])('register with %s → 400 naming the field', async (_label, body, message) => {
    const response = await request('POST', '/api/v1/devices', { body: { project_id: project.id, ...body } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errors: expect.arrayContaining([message]) });
  });

  const hexDigits = 'ab'.repeat(31);
  it.each([
    ['a space', `${hexDigits} 0`],
    ['a tab', `${hexDigits}\t0`],
    ['a CR', `${hexDigits}\r0`],
    ['a LF', `${hexDigits}\n0`],
    ['a NUL', `${hexDigits}\u00000`],
    ['a DEL', `${hexDigits}\u007f0`],
    ['a letter past f', `${hexDigits}0g`],
  ])('register an APNs token with %s → 400 naming the token, nothing registered', async (_label, token) => {
    const response = await request('POST', '/api/v1/devices', { body: { project_id: project.id, token, platform: 'ios' } });
    expect(response).toEqual({ status: 400, body: { errors: ['token must be an APNs device token: hexadecimal digits only (0-9, a-f)'] } });
  });

  it('register an APNs token of the wrong length, or an FCM token outside its alphabet → 400 naming the token', async () => {
    expect(await request('POST', '/api/v1/devices', { body: { project_id: project.id, token: 'abcd', platform: 'ios' } })).toEqual({
      status: 400,
      body: { errors: ['token must be an APNs device token: an even number of hex digits from 64 to 200 (it has 4)'] },
    });
    expect(await request('POST', '/api/v1/devices', { body: { project_id: project.id, token: 'fcm token', platform: 'android' } })).toEqual({
      status: 400,
      body: { errors: ['token must be an FCM registration token: letters, digits, "-", "_" and ":" only'] },
    });
  });

  it('a token refresh to a malformed token → 400, and the device keeps its token', async () => {
    const current = apnsToken('refresh-keeps');
    const registered = await request('POST', '/api/v1/devices', { body: { project_id: project.id, token: current, platform: 'ios' } });
    expect(registered.status).toBe(201);
    const deviceId = (registered.body!.data as { id: string }).id;
    const refresh = await request('POST', '/api/v1/devices', { body: { project_id: project.id, device_id: deviceId, token: `${hexDigits} 0`, previous_token: current, platform: 'ios' } });
    expect(refresh).toEqual({ status: 400, body: { errors: ['token must be an APNs device token: hexadecimal digits only (0-9, a-f)'] } });
    const device = await waitFor('the registered device', async () => {
      const list = await request('GET', `/api/v1/devices?token=${current}`, { key: project.api_key });
      return (list.body?.data as Array<{ id: string; token: string }> | undefined)?.find((item) => item.id === deviceId);
    });
    expect(device.token).toBe(current);
  });

  it('register with a missing project_id, malformed JSON, or a non-object body → 400', async () => {
    expect(await request('POST', '/api/v1/devices', { body: { token: 't', platform: 'ios' } })).toEqual({ status: 400, body: { errors: ['project_id is required'] } });
    expect(await request('POST', '/api/v1/devices', { rawBody: '{"project_id": ' })).toEqual({ status: 400, body: { errors: ['body must be valid JSON'] } });
    expect((await request('POST', '/api/v1/devices', { body: ['x'] })).status).toBe(400);
  });

  it('register for an unknown project or device id → 404', async () => {
    const unknownProject = await request('POST', '/api/v1/devices', { body: { project_id: 'nope', token: apnsToken('t'), platform: 'ios' } });
    expect(unknownProject).toEqual({ status: 404, body: { errors: ['project_id nope does not exist'] } });
    const unknownDevice = await request('POST', '/api/v1/devices', { body: { project_id: project.id, device_id: 'missing', token: apnsToken('t'), platform: 'ios' } });
    expect(unknownDevice.status).toBe(404);
  });

  it('a body that is not JSON → 415', async () => {
    const response = await request('POST', '/api/v1/devices', { rawBody: 'token=t', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response).toEqual({ status: 415, body: { errors: ['Content-Type must be application/json'] } });
  });

  it('a body over 1 MB → 413', async () => {
    const response = await request('POST', '/api/v1/devices', { body: { project_id: project.id, token: 'x'.repeat(1_100_000), platform: 'ios' } });
    expect(response).toEqual({ status: 413, body: { errors: ['body must not be larger than 1 MB'] } });
  });

  it.each([
    ['no Authorization header', undefined, {}],
    ['a non-bearer scheme', undefined, { authorization: 'Basic abc' }],
    ['a malformed key', 'not-a-key', {}],
    ['an unknown key', `hrld_${'0'.repeat(16)}_${'A'.repeat(32)}`, {}],
  ])('list with %s → 401', async (_label, key, headers) => {
    const response = await request('GET', '/api/v1/devices', { key, headers });
    expect(response.status).toBe(401);
    expect((response.body as { errors: string[] }).errors).toHaveLength(1);
  });

  it('a revoked key → 401', async () => {
    const issued = JSON.parse(await herald('keys', 'issue', project.id, '--json')) as { key_id: string; api_key: string };
    expect((await request('GET', '/api/v1/devices', { key: issued.api_key })).status).toBe(200);
    await herald('keys', 'revoke', issued.key_id);
    // Keys are believed for API_KEY_CACHE_MS (2 s): a revocation takes effect within seconds.
    const refused = await waitFor('the revoked key refused', async () => {
      const response = await request('GET', '/api/v1/devices', { key: issued.api_key });
      return response.status === 200 ? undefined : response;
    }, 10_000);
    expect(refused).toEqual({ status: 401, body: { errors: ['API key is not valid'] } });
  });

  it.each([
    ['limit=0', 'limit must be >= 1'],
    ['limit=ten', 'limit must be an integer'],
    ['page=0', 'page must be >= 1'],
    ['page=1.5', 'page must be an integer'],
    ['status=gone', 'status must be one of: active, inactive'],
  ])('list with %s → 400', async (query, message) => {
    expect(await request('GET', `/api/v1/devices?${query}`, { key: project.api_key })).toEqual({ status: 400, body: { errors: [message] } });
  });

  it('a known path with a method it does not have → 405 with Allow', async () => {
    const response = await fetch(`${harness.baseUrl}/api/v1/devices`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, GET');
    expect(await response.json()).toEqual({ errors: ['DELETE is not allowed on /api/v1/devices; allowed: POST, GET'] });
  });

  it('an unknown route → 404 in the same error shape', async () => {
    expect(await request('GET', '/api/v1/nothing')).toEqual({ status: 404, body: { errors: ['GET /api/v1/nothing is not a known route'] } });
  });

  it('health, readiness and the OpenAPI document answer', async () => {
    expect(await request('GET', '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await request('GET', '/readyz')).toEqual({ status: 200, body: { status: 'ready' } });
    const openapi = await request('GET', '/docs/json');
    expect(openapi.status).toBe(200);
    const paths = openapi.body!.paths as Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown }>>;
    // 408, 429, 431 and 503 on every API route: request deadline, rate limits, header size, deadline (documented-statuses.ts).
    const documented = (path: string, method: string) => Object.keys(paths[path]?.[method]?.responses ?? {}).sort();
    expect(documented('/api/v1/devices', 'get')).toEqual(['200', '400', '401', '408', '429', '431', '503']);
    expect(documented('/api/v1/devices', 'post')).toEqual(['201', '400', '401', '403', '404', '408', '409', '413', '415', '422', '429', '431', '503']);
    expect(documented('/api/v1/topics', 'get')).toEqual(['200', '400', '401', '408', '429', '431', '503']);
    expect(documented('/api/v1/topics', 'post')).toEqual(['201', '400', '401', '408', '413', '415', '422', '429', '431', '503']);
    expect(documented('/api/v1/topics/{id}', 'delete')).toEqual(['204', '400', '401', '404', '408', '429', '431', '503']);
    expect(documented('/api/v1/notifications', 'post')).toEqual(['201', '400', '401', '408', '409', '413', '415', '422', '429', '431', '503']);
    expect(documented('/api/v1/notifications/{id}', 'get')).toEqual(['200', '400', '401', '404', '408', '429', '431', '503']);
    expect(documented('/api/v1/notifications/{id}/open', 'put')).toEqual(['204', '400', '404', '408', '413', '415', '429', '431', '503']);
    expect(documented('/api/v1/metadata', 'patch')).toEqual(['200', '400', '401', '404', '408', '413', '415', '429', '431', '503']);
    // Bearer routes say so; device-facing routes do not.
    expect(paths['/api/v1/devices']!.get!.security).toEqual([{ bearerAuth: [] }]);
    // Registration and metadata writes take the bearer key as optional proof (a token refresh, a user id).
    expect(paths['/api/v1/metadata']!.patch!.security).toEqual([{}, { bearerAuth: [] }]);
    expect(paths['/api/v1/devices']!.post!.security).toEqual([{}, { bearerAuth: [] }]);
  });
});

describe('device lifecycle', () => {
  it('re-registering an inactive device makes it active again; a token refresh keeps the id', async () => {
    const project = await createProject('lifecycle');
    const registered = await request('POST', '/api/v1/devices', { body: { project_id: project.id, token: apnsToken('old-token'), platform: 'ios', metadata: { plan: 'pro' } } });
    const deviceId = (registered.body as { data: { id: string } }).data.id;
    const statusOf = async () => {
      const list = await request('GET', '/api/v1/devices', { key: project.api_key });
      return (list.body?.data as Array<{ id: string; status: string; token: string; metadata: Record<string, string> }>).find((d) => d.id === deviceId);
    };
    await waitFor('the device listed', statusOf);

    // What the delivery pipeline emits when APNs says the token is invalid.
    const { createEvent } = await import('@herald/events');
    await harness.env.producer.publish([
      createEvent('DeviceDeactivated', { device_id: deviceId, provider: 'apns', reason: 'BadDeviceToken' }, { project_id: project.id }),
    ]);
    await waitFor('the device to be inactive', async () => (await statusOf())?.status === 'inactive');
    const inactive = await request('GET', '/api/v1/devices?status=inactive', { key: project.api_key });
    expect((inactive.body!.data as Array<{ id: string }>).map((d) => d.id)).toEqual([deviceId]);

    const again = await request('POST', '/api/v1/devices', { body: { project_id: project.id, token: apnsToken('old-token'), platform: 'ios' } });
    expect(again).toMatchObject({ status: 201, body: { data: { id: deviceId, status: 'active', metadata: { plan: 'pro' } } } });
    await waitFor('the device to be active again', async () => (await statusOf())?.status === 'active');

    // A token refresh proves the caller is the device: its current token as previous_token.
    const refreshed = await request('POST', '/api/v1/devices', {
      body: { project_id: project.id, device_id: deviceId, token: apnsToken('new-token'), previous_token: apnsToken('old-token'), platform: 'ios' },
    });
    expect(refreshed).toMatchObject({ status: 201, body: { data: { id: deviceId, token: apnsToken('new-token') } } });
    const device = await waitFor('the refreshed token', async () => ((await statusOf())?.token === apnsToken('new-token') ? statusOf() : undefined));
    expect(device).toMatchObject({ status: 'active', metadata: { plan: 'pro' } });
  });
});
