import { execFile } from 'node:child_process';
import { randomUUID, sign } from 'node:crypto';
import http2 from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FakeTls, TestApnsKey } from '@herald/fake-providers';
import { buildApnsRequest } from '@herald/push-payloads';
import type { H2LoadResult, H2LoadSettings } from './node-h2-client.ts';
import { runH2load } from './h2load.ts';

/** Which client measured a ceiling: h2load (C), or the Node fallback when h2load could not be had. */
export type CeilingClient = 'h2load' | 'node';
export type CeilingResult = H2LoadResult & { client: CeilingClient };

const HERE = dirname(fileURLToPath(import.meta.url));

/** An APNs provider token as Apple wants it: ES256 (raw r||s), `kid` = key id, `iss` = team id, `iat` = now. */
export function providerToken(key: TestApnsKey, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: 'ES256', kid: key.keyId })}.${encode({ iss: key.teamId, iat: nowSeconds })}`;
  const signature = sign('sha256', Buffer.from(input), { key: key.keyPem, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/**
 * The raw HTTP/2 request rate one client process reaches against the fake
 * APNs: the same server, certificate and checks (JWT signature once per session)
 * the campaign meets, with the same payload Herald builds — but no Kafka, no
 * MongoDB, no node-apn. `sessions` × `streams` requests are kept in flight,
 * by `h2load` when its path is given (h2load.ts), else by the Node client
 * (node-h2-client.ts, in a process of its own).
 */
export async function measureCeiling(options: {
  url: string;
  ca: string;
  key: TestApnsKey;
  topic: string;
  projectId: string;
  count: number;
  seconds: number;
  sessions?: number;
  streams?: number;
  /** The h2load binary (ensureH2load); undefined: the Node client. */
  h2load?: string | undefined;
}): Promise<CeilingResult> {
  const { payload } = buildApnsRequest({ notification_id: '0190f3c4-0000-7000-8000-000000000000', project_id: options.projectId, title: 'Bench', body: 'Hello from the campaign benchmark' });
  const settings: H2LoadSettings = {
    url: options.url,
    ca: options.ca,
    authorization: `bearer ${providerToken(options.key)}`,
    topic: options.topic,
    body: JSON.stringify(payload),
    sessions: options.sessions ?? 4,
    streams: options.streams ?? 100,
    count: options.count,
    seconds: options.seconds,
  };
  if (options.h2load !== undefined) return { ...(await runH2load(options.h2load, settings)), client: 'h2load' };
  const { stdout } = await promisify(execFile)(process.execPath, [join(HERE, 'node-h2-client.ts')], {
    env: { ...process.env, HERALD_BENCH_H2: JSON.stringify(settings) },
    timeout: (options.seconds + 30) * 1000,
    maxBuffer: 1024 * 1024,
  });
  return { ...(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as H2LoadResult), client: 'node' };
}

/**
 * An HTTP/2 server with the fake's TLS and request handling style (core
 * stream API, body read to the end) but none of its checks: every request gets 200
 * and an apns-id. The ceiling against it, next to the one against the fake,
 * shows what the fake's own per-request work (ES256 verification, header
 * checks) costs.
 */
export async function startBareH2(tls: FakeTls): Promise<{ url: string; close(): Promise<void> }> {
  const server = http2.createSecureServer({ key: tls.key, cert: tls.cert });
  server.on('stream', (stream) => {
    stream.on('data', () => undefined);
    stream.on('error', () => undefined);
    // h2load ends its run by closing connections: a stream it already reset cannot be answered (respond would throw).
    stream.once('end', () => {
      if (!stream.destroyed && !stream.closed) stream.respond({ ':status': 200, 'apns-id': randomUUID() }, { endStream: true });
    });
  });
  const sockets = new Set<Socket>();
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
