import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http2 from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApns, type FakeApns } from './fake-apns.ts';
import { createTestApnsKey } from './test-keys.ts';
import { signTestJwt } from './test-jwt.ts';

const key = createTestApnsKey();
let apns: FakeApns;

beforeAll(async () => {
  apns = await startFakeApns({
    keys: [key],
    rules: [
      { prefix: 'gone-', status: 410, reason: 'Unregistered', timestamp: 1700000000000 },
      { prefix: 'busy-', status: 429, reason: 'TooManyRequests', retryAfterSeconds: 7, times: 1 },
    ],
  });
});
afterAll(async () => {
  await apns.close();
});
beforeEach(() => {
  apns.reset();
  apns.setLatency(0);
});

interface Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

/** One APNs request over a fresh HTTP/2 session that trusts the fake's CA. */
async function push(token: string, payload: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const session = http2.connect(apns.url, { ca: apns.ca });
  try {
    const jwt = signTestJwt({ alg: 'ES256', kid: key.keyId }, { iss: key.teamId, iat: Math.floor(Date.now() / 1000) }, key.keyPem);
    const stream = session.request({
      ':method': 'POST',
      ':path': `/3/device/${token}`,
      authorization: `bearer ${jwt}`,
      'apns-topic': 'com.example.app',
      'apns-push-type': 'alert',
      ...headers,
    });
    stream.end(JSON.stringify(payload));
    const responseHeaders = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
      stream.once('response', resolve);
      stream.once('error', reject);
    });
    let body = '';
    for await (const chunk of stream) body += String(chunk);
    return { status: Number(responseHeaders[':status']), headers: responseHeaders, body };
  } finally {
    session.close();
  }
}

describe('fake APNs', () => {
  it('accepts a push, records it without the provider token, and wakes a waiter', async () => {
    const waiting = apns.waitForDeliveries(1);
    const answer = await push('abc', { aps: { alert: { title: 'T', body: 'B' } } });
    expect(answer.status).toBe(200);
    expect(answer.headers['apns-id']).toMatch(/^[0-9a-f-]{36}$/);
    const [delivery] = await waiting;
    expect(delivery).toMatchObject({ token: 'abc', apnsId: answer.headers['apns-id'], payload: { aps: { alert: { title: 'T', body: 'B' } } } });
    expect(delivery?.headers).toMatchObject({ 'apns-topic': 'com.example.app', 'apns-push-type': 'alert' });
    expect(delivery?.headers).not.toHaveProperty('authorization');
  });

  it('answers 410 with reason and timestamp, and 429 with Retry-After only the first time', async () => {
    expect(await push('gone-1', { aps: {} })).toMatchObject({ status: 410, body: JSON.stringify({ reason: 'Unregistered', timestamp: 1700000000000 }) });
    const busy = await push('busy-1', { aps: {} });
    expect(busy).toMatchObject({ status: 429, body: '{"reason":"TooManyRequests"}' });
    expect(busy.headers['retry-after']).toBe('7');
    expect((await push('busy-1', { aps: {} })).status).toBe(200);
    expect(apns.stats).toMatchObject({ requests: 3, delivered: 1, rejected: 2, byReason: { Unregistered: 1, TooManyRequests: 1 } });
  });

  it('adds the configured latency to each answer', async () => {
    apns.setLatency(150);
    const started = performance.now();
    await push('abc', { aps: {} });
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('rejects a waiter that is not satisfied in time, naming what it waited for', async () => {
    await expect(apns.waitForDeliveries(1, 50)).rejects.toThrow('fake APNs: timed out after 50 ms waiting for 1 deliveries (got 0)');
  });

  it('keeps counting without recording when recording is off', async () => {
    const quiet = await startFakeApns({ keys: [key], record: false });
    try {
      const session = http2.connect(quiet.url, { ca: quiet.ca });
      const jwt = signTestJwt({ alg: 'ES256', kid: key.keyId }, { iss: key.teamId, iat: Math.floor(Date.now() / 1000) }, key.keyPem);
      const stream = session.request({ ':method': 'POST', ':path': '/3/device/x', authorization: `bearer ${jwt}`, 'apns-topic': 't', 'apns-push-type': 'alert' });
      stream.end('{"aps":{}}');
      await quiet.waitForDeliveries(1);
      session.close();
      expect(quiet.deliveries).toHaveLength(0);
      expect(quiet.stats.delivered).toBe(1);
    } finally {
      await quiet.close();
    }
  });

  it('is trusted by a process through NODE_EXTRA_CA_CERTS alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-ca-'));
    try {
      const caFile = join(dir, 'ca.pem');
      await writeFile(caFile, apns.ca);
      // No `ca` option: only the environment makes the certificate trusted.
      const script = `const s = require('node:http2').connect(${JSON.stringify(apns.url)});
        s.on('error', (e) => { console.log('error ' + e.code); process.exit(0); });
        const r = s.request({ ':method': 'POST', ':path': '/3/device/x' });
        r.on('response', (h) => { console.log('status ' + h[':status']); s.close(); });
        r.end();`;
      const child = spawn(process.execPath, ['-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile }, stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await new Promise((resolve) => child.once('close', resolve));
      // 403 MissingProviderToken: the TLS handshake succeeded and the fake answered.
      expect(output.trim()).toBe('status 403');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
