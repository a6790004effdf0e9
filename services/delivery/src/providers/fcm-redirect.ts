/**
 * Pointing firebase-admin at FCM_ENDPOINT — the one place Herald bends a
 * library. firebase-admin hard-codes Google's hosts and has no emulator
 * switch for messaging, so:
 *
 * - OAuth token exchange and HTTP/1.1 `send()`: an https.Agent whose sockets
 *   dial the endpoint. It goes to the credential's token client (see
 *   fcm-credential.ts: `cert(object, agent)` loses it) and is the app's `httpAgent`.
 * - `sendEach()`: opens its own HTTP/2 session with `http2.connect` and
 *   ignores `httpAgent` (https://github.com/firebase/firebase-admin-node/issues/2697).
 *   `withFcmHttp2Redirect` swaps `http2.connect` only for the synchronous
 *   duration of one `sendEach` call (firebase-admin 14 connects in that
 *   synchronous part), and only for Google's FCM host; every other caller in
 *   the process gets the real function.
 * - firebase-admin sends the pseudo-header `:scheme: "https:"` (URL.protocol,
 *   colon included). Google tolerates it; Node's HTTP/2 server resets the
 *   stream with a protocol error before any handler runs. The redirected
 *   session rewrites it to `https`.
 *
 * TLS stays verified against the endpoint's own host name; trust a fake with
 * `ca` or NODE_EXTRA_CA_CERTS.
 */
import { createRequire } from 'node:module';
import { isIP, type Socket } from 'node:net';
import https from 'node:https';
import tls from 'node:tls';
import type * as Http2 from 'node:http2';
import type { ClientHttp2Session, OutgoingHttpHeaders, SecureClientSessionOptions } from 'node:http2';
import { AppError } from '@herald/errors';
import type { Endpoint } from './endpoint.ts';

export const FCM_HOST = 'fcm.googleapis.com';

export interface RedirectTarget extends Endpoint {
  ca?: string[] | undefined;
}

// The CommonJS module object, the very one firebase-admin's `require('http2')` returns, so the swap is seen there.
const http2 = createRequire(import.meta.url)('node:http2') as typeof Http2;

type ConnectListener = (session: ClientHttp2Session, socket: Socket | tls.TLSSocket) => void;

function dial(target: RedirectTarget, alpn: string[]): tls.TLSSocket {
  return tls.connect({
    host: target.host,
    port: target.port,
    ...(isIP(target.host) === 0 ? { servername: target.host } : {}),
    ...(target.ca === undefined ? {} : { ca: target.ca }),
    ALPNProtocols: alpn,
  });
}

/** Keep-alive agent whose every connection goes to the target, whatever host the request names. */
export function createRedirectAgent(target: RedirectTarget): https.Agent {
  const agent = new https.Agent({ keepAlive: true });
  agent.createConnection = () => dial(target, ['http/1.1']);
  return agent;
}

function fixScheme(session: ClientHttp2Session): ClientHttp2Session {
  const request = session.request.bind(session);
  session.request = (headers, options) =>
    request(headers !== undefined && !Array.isArray(headers) && (headers as OutgoingHttpHeaders)[':scheme'] === 'https:' ? { ...headers, ':scheme': 'https' } : headers, options);
  return session;
}

function hostOf(authority: unknown): string | undefined {
  try {
    return new URL(String(authority)).hostname;
  } catch {
    return undefined;
  }
}

/** Calls `call` (a `messaging.sendEach(...)`) with FCM's HTTP/2 connections sent to the target. */
export function withFcmHttp2Redirect<T>(target: RedirectTarget, call: () => Promise<T>): Promise<T> {
  const original = http2.connect;
  let redirected = 0;
  const redirecting = (authority: string | URL, optionsOrListener?: SecureClientSessionOptions | ConnectListener, listener?: ConnectListener) => {
    const options = typeof optionsOrListener === 'function' ? {} : (optionsOrListener ?? {});
    const onConnect = typeof optionsOrListener === 'function' ? optionsOrListener : listener;
    if (hostOf(authority) !== FCM_HOST) return original(authority, options, onConnect);
    redirected += 1;
    return fixScheme(original(authority, { ...options, createConnection: () => dial(target, ['h2']) }, onConnect));
  };
  let result: Promise<T>;
  http2.connect = redirecting;
  try {
    result = call();
  } finally {
    http2.connect = original;
  }
  if (redirected === 0) {
    // firebase-admin changed how it connects; fail loudly instead of reaching Google from a test or staging run.
    result.catch(() => undefined);
    return Promise.reject(new AppError('INVALID_CONFIG', 'FCM_ENDPOINT redirect did not see firebase-admin open its HTTP/2 session; see fcm-redirect.ts'));
  }
  return result;
}
