import { Agent, get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, waitFor, type ApiHarness } from '@herald/testing';

/**
 * The rest of issue 17's item 6, on a real API process: connections per
 * client address are bounded, a slow body is closed at the request deadline
 * (not after 60 s), /readyz does not check Kafka and the store once per
 * request, and a send the store cannot evaluate is refused with 422 instead
 * of staying `queued`.
 */
const CONNECTIONS = 4;
const DEADLINE_MS = 1_500;
let harness: ApiHarness;
let url: URL;

beforeAll(async () => {
  harness = await startApiHarness('hygiene', {
    apiEnv: { HERALD_RATE_LIMITS: 'on', CONNECTIONS_PER_ADDRESS: String(CONNECTIONS), REQUEST_DEADLINE_MS: String(DEADLINE_MS) },
  });
  url = new URL(harness.baseUrl);
});
afterAll(async () => {
  expect(await harness?.stop()).toEqual({ api: 0, projector: 0 });
});

/** A raw connection from `localAddress` (any 127/8 address is the loopback), with what it has received and whether it is closed. */
function rawConnection(localAddress: string): Promise<{ socket: Socket; received: () => string; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let received = '';
    let closed = false;
    const socket = connect({ host: url.hostname, port: Number(url.port), localAddress }, () => resolve({ socket, received: () => received, closed: () => closed }));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('close', () => (closed = true));
    socket.on('error', (error) => (closed ? undefined : reject(error)));
  });
}

describe('connections', () => {
  it(`one address holds at most ${CONNECTIONS} connections; closing one frees its place`, async () => {
    const connections = await Promise.all(Array.from({ length: CONNECTIONS + 2 }, () => rawConnection('127.0.0.2')));
    for (const connection of connections) connection.socket.write(`GET /healthz HTTP/1.1\r\nhost: ${url.host}\r\n\r\n`);
    await waitFor('every connection answered or closed', () => connections.every((connection) => connection.received().includes('"status":"ok"') || connection.closed()), 10_000);
    const served = connections.filter((connection) => connection.received().includes('"status":"ok"'));
    expect(served).toHaveLength(CONNECTIONS);
    expect(connections.filter((connection) => connection.closed() && connection.received() === '')).toHaveLength(2);
    // Another address is not affected; once one closes, the address has a place again.
    expect((await fetch(`${harness.baseUrl}/healthz`)).status).toBe(200);
    served[0]!.socket.destroy();
    await waitFor('a new connection from the address served', async () => {
      const again = await rawConnection('127.0.0.2');
      again.socket.write(`GET /healthz HTTP/1.1\r\nhost: ${url.host}\r\nconnection: close\r\n\r\n`);
      await waitFor('an answer or a close', () => again.received() !== '' || again.closed(), 5_000);
      again.socket.destroy();
      return again.received().includes('"status":"ok"');
    }, 10_000);
    for (const connection of connections) connection.socket.destroy();
  });

  it('a body that does not arrive by the request deadline is answered 408 and its connection closed', async () => {
    const slow = await rawConnection('127.0.0.3');
    slow.socket.write(`POST /api/v1/devices HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"project_id":`);
    await waitFor('the slow connection closed by the server', () => slow.closed(), 10_000);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow.received()).toContain('"errors":["the request (headers and body) did not arrive before its deadline (REQUEST_DEADLINE_MS)"]');
  });
});

describe('/readyz', () => {
  it('answers a burst from one dependency check, not one check per request', async () => {
    const checks = async () => Number(/^herald_readiness_checks_total\{[^}]*\} (\d+)$/m.exec(await (await fetch(harness.metricsUrls.api!)).text())?.[1] ?? 'NaN');
    const before = await checks();
    // Over a few connections: this address may hold only CONNECTIONS.
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const readyz = () =>
      new Promise<number>((resolve, reject) => {
        get(`${harness.baseUrl}/readyz`, { agent }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        }).on('error', reject);
      });
    const answers = await Promise.all(Array.from({ length: 50 }, readyz));
    agent.destroy();
    expect(answers.every((status) => status === 200)).toBe(true);
    expect((await checks()) - (Number.isNaN(before) ? 0 : before)).toBeLessThanOrEqual(2);
  });
});

describe('sends the store cannot evaluate', () => {
  it('refuses a metadata filter key with white space at either end (422), so nothing stays queued', async () => {
    const project = await harness.createProject('hygiene-send');
    const response = await harness.request('POST', '/api/v1/notifications', {
      key: project.api_key,
      body: { notification: { title: 't', body: 'b', targets: [{ metadata: { 'plan ': 'pro' } }] } },
    });
    expect(response).toEqual({ status: 422, body: { errors: ['notification.targets[0].metadata."plan ": a key must not start or end with white space'] } });
  });
});
