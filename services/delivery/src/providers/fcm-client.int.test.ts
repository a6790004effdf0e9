import type * as Http2 from 'node:http2';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '@herald/errors';
import { createFakeTls, createTestServiceAccount, startFakeFcm, type FakeFcm, type FakeTls, type TestServiceAccount } from '@herald/fake-providers';
import { createFcmClient, type FcmClient, type FcmClientOptions } from './fcm-client.ts';
import { buildFcmMessage } from '@herald/push-payloads';

const message = { notification_id: '0190b6a0-0000-7000-8000-000000000001', project_id: 'proj-1', title: 'Sale', body: 'Ends tonight', link_to: 'shop://sale', group: 'promos' };
const devices = (...tokens: string[]) => tokens.map((token, index) => ({ device_id: `device-${index}`, token }));
const http2 = createRequire(import.meta.url)('node:http2') as typeof Http2;

let tls: FakeTls;
let account: TestServiceAccount;
let fcm: FakeFcm;
let client: FcmClient;
const clients: FcmClient[] = [];

function clientFor(overrides: Partial<FcmClientOptions> = {}): FcmClient {
  const created = createFcmClient({ serviceAccount: account.serviceAccount, endpoint: fcm.url, ca: tls.ca, ...overrides });
  clients.push(created);
  return created;
}

beforeAll(async () => {
  tls = await createFakeTls();
  account = createTestServiceAccount();
  fcm = await startFakeFcm({
    tls,
    accounts: [account],
    rules: [
      { prefix: 'gone-', errorCode: 'UNREGISTERED' },
      { prefix: 'invalid-', errorCode: 'INVALID_ARGUMENT' },
      { prefix: 'quota-', errorCode: 'QUOTA_EXCEEDED', retryAfterSeconds: 30 },
    ],
  });
  client = clientFor();
});
afterAll(async () => {
  await Promise.all(clients.map((each) => each.close()));
  await fcm.close();
});
beforeEach(() => {
  fcm.reset();
  fcm.setLatency(0);
});

describe('FCM client against the fake FCM', () => {
  it('exchanges the service account for a token at the endpoint, then delivers the built message over HTTP/2', async () => {
    const connect = http2.connect;
    const results = await client.send(devices('token-1'), buildFcmMessage(message));
    expect(results).toEqual([
      { device_id: 'device-0', outcome: 'delivered', providerMessageId: expect.stringMatching(new RegExp(`^projects/${account.projectId}/messages/`)) as unknown },
    ]);
    expect(fcm.deliveries[0]?.message).toEqual({ ...buildFcmMessage(message), token: 'token-1' });
    expect(fcm.oauth.issued).toBeGreaterThanOrEqual(1);
    // The redirect exists only during sendEach's synchronous part.
    expect(http2.connect).toBe(connect);
  });

  it("sends each device its own message when given one per device, in the one call, keeping input order", async () => {
    const titles = new Map([['token-fr', 'Soldes'], ['token-en', 'Sale'], ['token-de', 'Ausverkauf']]);
    const results = await client.send(devices('token-fr', 'token-en', 'token-de'), (device) => buildFcmMessage({ ...message, title: titles.get(device.token)! }));
    expect(results.map((result) => [result.device_id, result.outcome])).toEqual([['device-0', 'delivered'], ['device-1', 'delivered'], ['device-2', 'delivered']]);
    expect(fcm.deliveries.map((delivery) => delivery.message).sort((a, b) => String(a.token).localeCompare(String(b.token)))).toEqual(
      ['token-de', 'token-en', 'token-fr'].map((token) => ({ ...buildFcmMessage({ ...message, title: titles.get(token)! }), token })),
    );
  });

  it('reuses its access token across sends', async () => {
    const issued = fcm.oauth.issued;
    await client.send(devices('token-1'), buildFcmMessage(message));
    await client.send(devices('token-2'), buildFcmMessage(message));
    expect(fcm.oauth.issued).toBe(issued);
  });

  it('sends over one HTTP/2 connection, not one per sendEach', async () => {
    await client.send(devices('token-1'), buildFcmMessage(message));
    const before = fcm.connections;
    for (let index = 0; index < 5; index += 1) await client.send(devices(`token-${index}`), buildFcmMessage(message));
    await Promise.all([client.send(devices('token-a'), buildFcmMessage(message)), client.send(devices('token-b'), buildFcmMessage(message))]);
    expect(fcm.stats.delivered).toBe(8);
    expect(fcm.connections).toBe(before);
  });

  it('opens a fresh session after the server closed the last one', async () => {
    await client.send(devices('token-1'), buildFcmMessage(message));
    const before = fcm.connections;
    await fcm.dropConnections();
    // A send racing the client's notice of the drop may come back retryable (the sender retries it); the next ones use a new session.
    await vi.waitFor(async () => expect((await client.send(devices('token-2'), buildFcmMessage(message)))[0]).toMatchObject({ outcome: 'delivered' }), { timeout: 5_000, interval: 50 });
    expect(fcm.connections).toBeGreaterThan(before);
  });

  it('reports per device, in order: UNREGISTERED, INVALID_ARGUMENT on the token, QUOTA_EXCEEDED with Retry-After', async () => {
    const results = await client.send(devices('ok-1', 'gone-1', 'invalid-1', 'quota-1'), buildFcmMessage(message));
    expect(results.map(({ providerMessageId: _id, ...rest }) => rest)).toEqual([
      { device_id: 'device-0', outcome: 'delivered' },
      { device_id: 'device-1', outcome: 'token-invalid', reason: 'UNREGISTERED' },
      { device_id: 'device-2', outcome: 'token-invalid', reason: 'INVALID_ARGUMENT' },
      { device_id: 'device-3', outcome: 'retryable', reason: 'QUOTA_EXCEEDED', retryAfterMs: 30_000 },
    ]);
  });

  it('rejects a payload over 4096 bytes without blaming the token', async () => {
    const results = await client.send(devices('ok-1'), buildFcmMessage({ ...message, body: 'x'.repeat(4100) }));
    expect(results).toEqual([{ device_id: 'device-0', outcome: 'rejected', reason: 'INVALID_ARGUMENT' }]);
  });

  it('is rejected when Google refuses the service account, and sends nothing', async () => {
    const stranger = createTestServiceAccount({ projectId: account.projectId });
    const results = await clientFor({ serviceAccount: stranger.serviceAccount }).send(devices('ok-1', 'ok-2'), buildFcmMessage(message));
    expect(results.map((result) => [result.outcome, result.reason])).toEqual([
      ['rejected', 'app/invalid-credential'],
      ['rejected', 'app/invalid-credential'],
    ]);
    expect(fcm.stats.requests).toBe(0);
  });

  it('sends in chunks with a bound on chunks in flight, keeping input order', async () => {
    fcm.setLatency(20);
    const chunked = clientFor({ chunkSize: 3, maxConcurrentChunks: 1 });
    const tokens = Array.from({ length: 10 }, (_, index) => `ok-${index}`);
    const started = performance.now();
    const results = await chunked.send(devices(...tokens), buildFcmMessage(message));
    expect(results.map((result) => [result.device_id, result.outcome])).toEqual(tokens.map((_, index) => [`device-${index}`, 'delivered']));
    expect(fcm.stats.maxInFlight).toBeLessThanOrEqual(3);
    expect(fcm.deliveries.map((delivery) => delivery.token).sort()).toEqual([...tokens].sort());
    expect(performance.now() - started).toBeGreaterThanOrEqual(4 * 20 - 5);
  });

  it('counts messages, not sendEach calls, in flight: one-device sends run side by side', async () => {
    fcm.setLatency(20);
    const client = clientFor({ maxConcurrentChunks: 1 });
    const sends = Array.from({ length: 12 }, (_, index) => client.send(devices(`ok-${index}`), buildFcmMessage(message)));
    const results = (await Promise.all(sends)).flat();
    expect(results.every((result) => result.outcome === 'delivered')).toBe(true);
    // Counted in calls, one call (of one message) would have been in flight at a time.
    expect(fcm.stats.maxInFlight).toBeGreaterThan(1);
    expect(fcm.stats.maxInFlight).toBeLessThanOrEqual(12);
  });

  it('maps an unreachable endpoint to retryable', async () => {
    const gone = await startFakeFcm({ tls, accounts: [account] });
    await gone.close();
    const results = await clientFor({ endpoint: gone.url }).send(devices('ok-1'), buildFcmMessage(message));
    expect(results[0]).toMatchObject({ device_id: 'device-0', outcome: 'retryable' });
  });

  it('refuses bad configuration up front', () => {
    expect(() => createFcmClient({ serviceAccount: { ...account.serviceAccount, private_key: '' } })).toThrow(ConfigError);
    expect(() => createFcmClient({ serviceAccount: { ...account.serviceAccount, private_key: 'not a key' } })).toThrow(ConfigError);
    expect(() => createFcmClient({ serviceAccount: account.serviceAccount, chunkSize: 501 })).toThrow(ConfigError);
    expect(() => createFcmClient({ serviceAccount: account.serviceAccount, endpoint: 'https://127.0.0.1:1/v1' })).toThrow('FCM_ENDPOINT must be an origin');
  });
});
