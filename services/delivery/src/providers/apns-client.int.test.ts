import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '@herald/errors';
import { createFakeTls, createTestApnsKey, startFakeApns, type FakeApns, type FakeTls, type TestApnsKey } from '@herald/fake-providers';
import { createApnsClient, type ApnsClient, type ApnsClientOptions } from './apns-client.ts';
import { buildApnsRequest, buildLiveActivityRequest, nextLiveActivityTimestamp } from '@herald/push-payloads';

const BUNDLE = 'com.example.herald';
const message = { notification_id: '0190b6a0-0000-7000-8000-000000000001', project_id: 'proj-1', title: 'Sale', body: 'Ends tonight', link_to: 'shop://sale', group: 'promos' };
const devices = (...tokens: string[]) => tokens.map((token, index) => ({ device_id: `device-${index}`, token }));

let tls: FakeTls;
let key: TestApnsKey;
let apns: FakeApns;
let client: ApnsClient;
const clients: ApnsClient[] = [];

function clientFor(overrides: Partial<ApnsClientOptions> = {}): ApnsClient {
  const created = createApnsClient({
    credential: { keyPem: key.keyPem, keyId: key.keyId, teamId: key.teamId, bundleId: BUNDLE, sandbox: true },
    endpoint: apns.url,
    ca: tls.ca,
    ...overrides,
  });
  clients.push(created);
  return created;
}

beforeAll(async () => {
  tls = await createFakeTls();
  key = createTestApnsKey();
  apns = await startFakeApns({
    tls,
    keys: [key],
    topics: [BUNDLE],
    rules: [
      { prefix: 'gone-', status: 410, reason: 'Unregistered', timestamp: 1700000000000 },
      { prefix: 'bad-', status: 400, reason: 'BadDeviceToken' },
      { prefix: 'busy-', status: 429, reason: 'TooManyRequests', retryAfterSeconds: 5, times: 1 },
      { prefix: 'crash-', status: 500, reason: 'InternalServerError' },
    ],
  });
  client = clientFor();
});
afterAll(async () => {
  await Promise.all(clients.map((each) => each.close()));
  await apns.close();
});
beforeEach(() => {
  apns.reset();
  apns.setLatency(0);
});

describe('APNs client against the fake APNs', () => {
  it('delivers the built payload with the project topic, as an alert, without a collapse id', async () => {
    const request = buildApnsRequest(message);
    const results = await client.send(devices('a1b2c3'), request);
    expect(results).toEqual([{ device_id: 'device-0', outcome: 'delivered', providerMessageId: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown }]);
    const [delivery] = apns.deliveries;
    expect(delivery?.payload).toEqual(request.payload);
    expect(delivery?.headers).toMatchObject({ 'apns-topic': BUNDLE, 'apns-push-type': 'alert', 'apns-priority': '10' });
    expect(delivery?.headers).not.toHaveProperty('apns-collapse-id');
  });

  it("sends each device its own request in one call (per-device content), the same request's devices the same payload", async () => {
    const hi = buildApnsRequest({ ...message, title: 'Hi Ana' });
    const hallo = buildApnsRequest({ ...message, title: 'Hallo Bo' });
    const own: Record<string, typeof hi> = { 'device-0': hi, 'device-1': hallo, 'device-2': hi };
    const results = await client.send(devices('a1', 'b2', 'c3'), (device) => own[device.device_id]!);
    expect(results.map((result) => result.outcome)).toEqual(['delivered', 'delivered', 'delivered']);
    const byToken = new Map(apns.deliveries.map((delivery) => [delivery.token, delivery.payload]));
    expect([byToken.get('a1'), byToken.get('b2'), byToken.get('c3')]).toEqual([hi.payload, hallo.payload, hi.payload]);
  });

  it('sends a Live Activity start to a push-to-start token with the liveactivity type and topic, and updates with rising timestamps', async () => {
    const start = buildLiveActivityRequest({
      event: 'start',
      timestamp: 1_700_000_000,
      attributes_type: 'DeliveryAttributes',
      attributes: { order: '42' },
      content_state: { eta: 12 },
      alert: { title: 'On its way', body: 'ETA 12 min' },
    });
    expect(await client.sendLiveActivity(devices('aa01'), start)).toMatchObject([{ device_id: 'device-0', outcome: 'delivered' }]);
    expect(apns.deliveries[0]?.headers).toMatchObject({ 'apns-topic': `${BUNDLE}.push-type.liveactivity`, 'apns-push-type': 'liveactivity', 'apns-priority': '10' });
    expect(apns.deliveries[0]?.payload).toEqual(start.payload);

    // Two updates within one second still rise; the fake (as a device would) refuses one that does not.
    const first = nextLiveActivityTimestamp(undefined, 1_700_000_100_000);
    const second = nextLiveActivityTimestamp(first, 1_700_000_100_400);
    for (const [timestamp, eta] of [[first, 5], [second, 4]] as const) {
      const update = buildLiveActivityRequest({ event: 'update', timestamp, content_state: { eta }, priority: 5 });
      expect(await client.sendLiveActivity(devices('bb01'), update)).toMatchObject([{ outcome: 'delivered' }]);
    }
    const updates = apns.deliveries.filter((delivery) => delivery.token === 'bb01');
    expect(updates.map((delivery) => (delivery.payload as { aps: { timestamp: number } }).aps.timestamp)).toEqual([first, second]);
    expect(updates[1]?.headers).toMatchObject({ 'apns-priority': '5' });
    const stale = buildLiveActivityRequest({ event: 'update', timestamp: first, content_state: { eta: 5 } });
    expect(await client.sendLiveActivity(devices('bb01'), stale)).toMatchObject([{ outcome: 'rejected', reason: 'LiveActivityTimestampNotIncreasing' }]);
  });

  it('sends apns-collapse-id, apns-expiration and the background type and priority when asked', async () => {
    await client.send(devices('a1'), buildApnsRequest({ ...message, collapse_id: 'sale', ttl: 60 }, 1_700_000_000_000));
    expect(apns.deliveries[0]?.headers).toMatchObject({ 'apns-collapse-id': 'sale', 'apns-expiration': '1700000060' });
    apns.reset();
    await client.send(devices('a2'), buildApnsRequest({ ...message, title: '', body: '', content_available: true }));
    expect(apns.deliveries[0]?.headers).toMatchObject({ 'apns-push-type': 'background', 'apns-priority': '5' });
    expect(apns.deliveries[0]?.payload).toMatchObject({ aps: { 'content-available': 1 } });
  });

  it('reports per device, in order: 410 Unregistered with its timestamp, 400 BadDeviceToken', async () => {
    const results = await client.send(devices('ok-1', 'gone-1', 'bad-1', 'ok-2'), buildApnsRequest(message));
    expect(results.map(({ providerMessageId: _id, ...rest }) => rest)).toEqual([
      { device_id: 'device-0', outcome: 'delivered' },
      { device_id: 'device-1', outcome: 'token-invalid', reason: 'Unregistered', providerTimestamp: '2023-11-14T22:13:20.000Z' },
      { device_id: 'device-2', outcome: 'token-invalid', reason: 'BadDeviceToken' },
      { device_id: 'device-3', outcome: 'delivered' },
    ]);
  });

  it('returns 429 as retryable without retrying it itself', async () => {
    expect(await client.send(devices('busy-1'), buildApnsRequest(message))).toEqual([{ device_id: 'device-0', outcome: 'retryable', reason: 'TooManyRequests' }]);
    expect(apns.stats.requests).toBe(1);
    expect((await client.send(devices('busy-1'), buildApnsRequest(message)))[0]?.outcome).toBe('delivered');
  });

  it('is refused with InvalidProviderToken when its key is not the one Apple knows', async () => {
    const impostor = createTestApnsKey({ keyId: key.keyId, teamId: key.teamId });
    const results = await clientFor({ credential: { keyPem: impostor.keyPem, keyId: key.keyId, teamId: key.teamId, bundleId: BUNDLE, sandbox: true } }).send(
      devices('ok-1', 'ok-2'),
      buildApnsRequest(message),
    );
    expect(results.map((result) => [result.outcome, result.reason])).toEqual([
      ['rejected', 'InvalidProviderToken'],
      ['rejected', 'InvalidProviderToken'],
    ]);
  });

  it('gets PayloadTooLarge for a payload over 4096 bytes', async () => {
    const results = await client.send(devices('ok-1'), buildApnsRequest({ ...message, body: 'x'.repeat(4100) }));
    expect(results).toEqual([{ device_id: 'device-0', outcome: 'rejected', reason: 'PayloadTooLarge' }]);
  });

  it('keeps at most maxInFlight requests open, whatever the latency', async () => {
    apns.setLatency(30);
    const bounded = clientFor({ maxInFlight: 3 });
    const started = performance.now();
    const results = await bounded.send(devices(...Array.from({ length: 12 }, (_, index) => `ok-${index}`)), buildApnsRequest(message));
    expect(results.every((result) => result.outcome === 'delivered')).toBe(true);
    expect(apns.stats.maxInFlight).toBe(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(4 * 30 - 5);
  });

  it('loses no answer when 500s end its session with pushes in flight (each push APNs took is reported delivered)', async () => {
    // node-apn closes its session after a 500; a second 500 during that close used to destroy it at once,
    // resetting the pushes in flight, many of which APNs had taken: the sender then sent those again.
    apns.setLatency(5);
    const crashing = clientFor({ requestTimeoutMs: 60_000 });
    for (let round = 0; round < 3; round += 1) {
      apns.reset();
      const tokens = Array.from({ length: 1_000 }, (_, index) => (index % 50 === 7 ? `crash-${round}-${index}` : `ok-${round}-${index}`));
      const results = await crashing.send(devices(...tokens), buildApnsRequest(message));
      const taken = new Set(apns.deliveries.map((delivery) => delivery.token));
      const delivered = new Set(results.flatMap((result, index) => (result.outcome === 'delivered' ? [tokens[index]!] : [])));
      expect([...taken].filter((token) => !delivered.has(token)), `round ${round}: taken by APNs but not reported delivered`).toEqual([]);
      expect([...delivered].filter((token) => !taken.has(token))).toEqual([]);
      // What did not get through is open for the sender to try again: the 500s, and pushes refused by a closing session.
      expect(results.every((result) => result.outcome === 'delivered' || result.outcome === 'retryable')).toBe(true);
    }
  });

  it('maps an expired provider token to retryable', async () => {
    const future = await startFakeApns({ tls, keys: [key], now: () => Date.now() + 2 * 60 * 60 * 1000 });
    try {
      const results = await clientFor({ endpoint: future.url }).send(devices('ok-1'), buildApnsRequest(message));
      expect(results).toEqual([{ device_id: 'device-0', outcome: 'retryable', reason: 'ExpiredProviderToken' }]);
    } finally {
      await future.close();
    }
  });

  it('maps an unreachable endpoint to retryable, and still closes', async () => {
    const gone = await startFakeApns({ tls, keys: [key] });
    await gone.close();
    const unreachable = createApnsClient({
      credential: { keyPem: key.keyPem, keyId: key.keyId, teamId: key.teamId, bundleId: BUNDLE, sandbox: true },
      endpoint: gone.url,
      ca: tls.ca,
      closeTimeoutMs: 200,
    });
    expect(await unreachable.send(devices('ok-1'), buildApnsRequest(message))).toEqual([{ device_id: 'device-0', outcome: 'retryable', reason: 'ConnectionError' }]);
    await unreachable.close();
  });

  it('refuses a key that is not PEM and an endpoint that is not https', () => {
    const credential = { keyPem: '/etc/keys/AuthKey.p8', keyId: key.keyId, teamId: key.teamId, bundleId: BUNDLE, sandbox: false };
    expect(() => createApnsClient({ credential })).toThrow(ConfigError);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    expect(() => createApnsClient({ credential: { ...credential, keyPem: rsa.privateKey } })).toThrow('APNs keyPem must be an EC P-256 key');
    expect(() => createApnsClient({ credential: { ...credential, keyPem: key.keyPem }, endpoint: 'http://127.0.0.1:1' })).toThrow('APNS_ENDPOINT must use https');
  });

  it('trusts the fake through NODE_EXTRA_CA_CERTS alone, with no ca option', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-apns-ca-'));
    try {
      const caFile = join(dir, 'ca.pem');
      await writeFile(caFile, tls.ca);
      const script = `import { createApnsClient } from '@herald/delivery';
        import { buildApnsRequest } from '@herald/push-payloads';
        const input = JSON.parse(process.env.TEST_INPUT);
        const client = createApnsClient({ credential: input.credential, endpoint: input.endpoint });
        console.log(JSON.stringify(await client.send([{ device_id: 'd', token: 'ok-env' }], buildApnsRequest(input.message))));
        await client.close();`;
      const input = { credential: { keyPem: key.keyPem, keyId: key.keyId, teamId: key.teamId, bundleId: BUNDLE, sandbox: true }, endpoint: apns.url, message };
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        cwd: join(import.meta.dirname, '..', '..'),
        env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile, TEST_INPUT: JSON.stringify(input) },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await new Promise((resolve) => child.once('close', resolve));
      expect(JSON.parse(output.trim())).toEqual([{ device_id: 'd', outcome: 'delivered', providerMessageId: expect.any(String) as unknown }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
