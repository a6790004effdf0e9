import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { postWebhook, withoutAddresses, type Connector, type OutboundOptions } from './outbound.ts';

/**
 * Outbound webhook calls. Every socket the tests open goes to a server on
 * 127.0.0.1: the connector is injected, so a test that "connects" to a public
 * address really connects to loopback, and an SSRF attempt is proven refused
 * because the connector is never called.
 */
let server: Server;
let port: number;
const seen: { url: string; host: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', host: request.headers.host, body });
      if (request.url === '/redirect') response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      else if (request.url === '/big') response.writeHead(200).end('x'.repeat(1_000_000));
      else if (request.url === '/silent') return; // never answers
      else if (request.url === '/fail') response.writeHead(500).end('no');
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A connector that records what it was asked and connects to the loopback test server whatever the address. */
function loopbackConnector(calls: Parameters<Connector>[0][]): Connector {
  return (target) => {
    calls.push(target);
    return connect({ host: '127.0.0.1', port });
  };
}

const options = (overrides: Partial<OutboundOptions>): OutboundOptions => ({
  resolver: async () => ['127.0.0.1'],
  connector: loopbackConnector([]),
  allowLoopback: true,
  timeoutMs: 2_000,
  maxResponseBytes: 1024,
  ...overrides,
});

describe('postWebhook', () => {
  it('refuses a host that resolves to a link-local or private address before any connection', async () => {
    for (const address of ['169.254.169.254', '10.0.0.7', 'fd12::1', '::ffff:192.168.0.1', '::a9fe:a9fe', '::7f00:1', '64:ff9b::a9fe:a9fe', '2002:a00:1::1']) {
      const calls: Parameters<Connector>[0][] = [];
      const result = await postWebhook('https://metadata.attacker.example/hook', '{}', {}, options({ resolver: async () => [address], connector: loopbackConnector(calls), allowLoopback: false }));
      expect(result).toMatchObject({ ok: false, refused: true, detail: expect.stringContaining(address) });
      // What the project sees (last_failure) never says what the name resolved to: a webhook is no resolver for the inside of the network.
      expect((result as { error: string }).error).toBe('metadata.attacker.example resolves to an address webhooks may not call (only public unicast addresses are): refused');
      expect(calls, `no connection for ${address}`).toEqual([]);
    }
  });

  it('refuses when any one of the answers is private (no rebinding coin toss)', async () => {
    const calls: Parameters<Connector>[0][] = [];
    const result = await postWebhook('https://mixed.example/hook', '{}', {}, options({ resolver: async () => ['93.184.216.34', '192.168.1.1'], connector: loopbackConnector(calls), allowLoopback: false }));
    expect(result).toMatchObject({ ok: false, refused: true });
    expect(calls).toEqual([]);
  });

  it('refuses http:// and loopback outside local mode, IP literals included, without resolving', async () => {
    const calls: Parameters<Connector>[0][] = [];
    let resolved = 0;
    const strict = options({ allowLoopback: false, connector: loopbackConnector(calls), resolver: async () => (resolved += 1, ['127.0.0.1']) });
    expect(await postWebhook(`http://127.0.0.1:${port}/`, '{}', {}, strict)).toMatchObject({ ok: false, refused: true });
    expect(await postWebhook(`https://127.0.0.1:${port}/`, '{}', {}, strict)).toMatchObject({ ok: false, refused: true });
    expect(await postWebhook('https://[::1]/', '{}', {}, strict)).toMatchObject({ ok: false, refused: true });
    expect(await postWebhook('https://user:pw@hooks.example/', '{}', {}, strict)).toMatchObject({ ok: false, refused: true });
    expect(calls).toEqual([]);
    expect(resolved).toBe(0);
  });

  it('connects to the checked address with the URL host as TLS server name and Host header', async () => {
    const calls: Parameters<Connector>[0][] = [];
    // The connector is asked for TLS to the checked address; this test's connector answers with the plain loopback server.
    const result = await postWebhook('https://hooks.example.com:8443/in?x=1', '{"a":1}', { 'x-test': '1' }, options({ resolver: async () => ['93.184.216.34'], connector: loopbackConnector(calls), allowLoopback: false }));
    expect(result).toEqual({ ok: true, status: 204 });
    expect(calls).toEqual([{ address: '93.184.216.34', port: 8443, tls: true, servername: 'hooks.example.com' }]);
    expect(seen.at(-1)).toEqual({ url: '/in?x=1', host: 'hooks.example.com:8443', body: '{"a":1}' });
  });

  it('does not follow redirects, reports failures, bounds the body and the time', async () => {
    const url = (path: string) => `http://127.0.0.1:${port}${path}`;
    expect(await postWebhook(url('/redirect'), '{}', {}, options({}))).toEqual({ ok: false, status: 302, error: 'answered 302 (redirects are not followed)' });
    expect(seen.filter((item) => item.url === '/' && item.host?.startsWith('169.254'))).toEqual([]);
    expect(await postWebhook(url('/fail'), '{}', {}, options({}))).toEqual({ ok: false, status: 500, error: 'answered 500' });
    expect(await postWebhook(url('/big'), '{}', {}, options({}))).toEqual({ ok: true, status: 200 });
    expect(await postWebhook(url('/silent'), '{}', {}, options({ timeoutMs: 200 }))).toEqual({ ok: false, error: 'no answer within 200 ms' });
  });
});

describe('withoutAddresses', () => {
  it('takes every IP address (with its port) out of an error message, and leaves the rest', () => {
    expect(withoutAddresses('connect ECONNREFUSED 10.0.0.7:443')).toBe('connect ECONNREFUSED <address>');
    expect(withoutAddresses('connect ETIMEDOUT fd12::1:443, then 169.254.169.254')).toBe('connect ETIMEDOUT <address>, then <address>');
    expect(withoutAddresses('connect EHOSTUNREACH [::ffff:192.168.0.1]:8443')).toBe('connect EHOSTUNREACH <address>');
    expect(withoutAddresses('getaddrinfo ENOTFOUND hooks.example.com')).toBe('getaddrinfo ENOTFOUND hooks.example.com');
    expect(withoutAddresses('answered 503')).toBe('answered 503');
  });
});
