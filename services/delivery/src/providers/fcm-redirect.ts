/**
 * Pointing firebase-admin at FCM_ENDPOINT — with fcm-sessions.ts, the only
 * place Herald bends a library. firebase-admin hard-codes Google's hosts and has no emulator
 * switch for messaging, so:
 *
 * - OAuth token exchange and HTTP/1.1 `send()`: an https.Agent whose sockets
 *   dial the endpoint. It goes to the credential's token client (see
 *   fcm-credential.ts: `cert(object, agent)` loses it) and is the app's `httpAgent`.
 * - `sendEach()`: opens its own HTTP/2 session with `http2.connect` and
 *   ignores `httpAgent` (https://github.com/firebase/firebase-admin-node/issues/2697).
 *   Every client lends `sendEach` its one pooled session (fcm-sessions.ts);
 *   a redirected client opens that session with `redirectedSession`.
 * - firebase-admin sends the pseudo-header `:scheme: "https:"` (URL.protocol,
 *   colon included). Google tolerates it; Node's HTTP/2 server resets the
 *   stream with a protocol error before any handler runs. The redirected
 *   session rewrites it to `https`.
 *
 * TLS stays verified against the endpoint's own host name; trust a fake with
 * `ca` or NODE_EXTRA_CA_CERTS.
 */
import { isIP } from 'node:net';
import https from 'node:https';
import tls from 'node:tls';
import type { ClientHttp2Session, OutgoingHttpHeaders } from 'node:http2';
import type { Endpoint } from './endpoint.ts';
import type { OpenSession } from './fcm-sessions.ts';

export interface RedirectTarget extends Endpoint {
  ca?: string[] | undefined;
}

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

/** How a client's FCM session is opened when it is redirected: over a socket dialled to the target, with the scheme fixed. */
export function redirectedSession(target: RedirectTarget): OpenSession {
  return (connect, authority, options) => fixScheme(connect(authority, { ...options, createConnection: () => dial(target, ['h2']) }));
}
