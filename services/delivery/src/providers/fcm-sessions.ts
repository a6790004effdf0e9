/**
 * One HTTP/2 session per FCM client, lent to every `sendEach`.
 *
 * firebase-admin's `sendEach` opens a new HTTP/2 session (a TCP connection
 * and a TLS handshake) for each call and closes it when the call ends
 * (`Http2SessionHandler` in its api-request.js). For a campaign that is one
 * handshake per 500 messages; for one-device sends it is one per push, and
 * it was the largest single cost of delivery's CPU in the transactional
 * benchmark. So, for the synchronous part of each `sendEach` (where
 * firebase-admin connects), `http2.connect` for FCM's host returns a lease
 * of the client's one open session instead: the lease forwards everything,
 * remembers the listeners firebase-admin adds, and its `close()` removes
 * those listeners instead of closing the shared session. A session that
 * errs, receives GOAWAY or closes is retired (closed gracefully once its
 * streams end) and the next call opens a fresh one.
 *
 * With FCM_ENDPOINT, the session dials the endpoint instead (fcm-redirect.ts).
 */
import { createRequire } from 'node:module';
import type * as Http2 from 'node:http2';
import type { ClientHttp2Session, ClientHttp2Stream, SecureClientSessionOptions } from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { AppError } from '@herald/errors';

export const FCM_HOST = 'fcm.googleapis.com';

// The CommonJS module object, the very one firebase-admin's `require('http2')` returns, so the swap is seen there.
const http2 = createRequire(import.meta.url)('node:http2') as typeof Http2;

type ConnectListener = (session: ClientHttp2Session, socket: Socket | TLSSocket) => void;
type Connect = (authority: string | URL, options: SecureClientSessionOptions) => ClientHttp2Session;

/** Opens the session a pool lends (`connect` is the real `http2.connect`; a redirect adds its own socket). */
export type OpenSession = (connect: Connect, authority: string | URL, options: SecureClientSessionOptions) => ClientHttp2Session;

const LISTENER_METHODS = new Set<PropertyKey>(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);

export class FcmSessions {
  readonly #open: OpenSession;
  #session: ClientHttp2Session | undefined;
  /** How the last session was opened (the arguments firebase-admin gave), to open the next one between calls. */
  #reopen: (() => ClientHttp2Session) | undefined;
  #closed = false;

  constructor(open: OpenSession = (connect, authority, options) => connect(authority, options)) {
    this.#open = open;
  }

  /** A lease of the open session (opened now if there is none usable). */
  lend(connect: Connect, authority: string | URL, options: SecureClientSessionOptions): ClientHttp2Session {
    if (this.#closed) throw new AppError('INTERNAL', 'FCM client is closed');
    this.#reopen = () => this.#open(connect, authority, options);
    return lease(this.live(), this);
  }

  /** The open session, or a new one if it closed (a lease whose session ended mid-call sends its retries here). */
  live(): ClientHttp2Session {
    let session = this.#session;
    if (session === undefined || session.closed || session.destroyed) {
      if (this.#reopen === undefined) throw new AppError('INTERNAL', 'FCM session asked for before any call');
      session = this.#reopen();
      this.#adopt(session);
    }
    return session;
  }

  /** Closes the open session once its streams end. */
  close(): void {
    this.#closed = true;
    this.#retire(this.#session);
  }

  #adopt(session: ClientHttp2Session): void {
    this.#session = session;
    // Concurrent sendEach calls each add two listeners.
    session.setMaxListeners(0);
    // Never keeps the process alive on its own; errors with no lease open are not uncaught.
    session.unref();
    session.on('error', () => this.#retire(session));
    session.on('goaway', () => this.#retire(session));
    session.on('close', () => this.#retire(session));
  }

  #retire(session: ClientHttp2Session | undefined): void {
    if (session === undefined) return;
    if (this.#session === session) this.#session = undefined;
    if (!session.closed && !session.destroyed) session.close();
  }
}

/**
 * The shared session as one sendEach sees it: closing it only takes back
 * that call's listeners; a request after the session ended goes to the
 * pool's live one; a stream that ends with neither an answer nor an error
 * (the connection dropped under it: Node closes it with CANCEL and no
 * 'error', and firebase-admin, listening only for 'response' and 'error',
 * would wait for ever) is failed with a connection error the sender retries.
 */
function lease(session: ClientHttp2Session, pool: Pick<FcmSessions, 'live'>): ClientHttp2Session {
  const added: Array<[string | symbol, (...args: unknown[]) => void]> = [];
  let released = false;
  const proxy: ClientHttp2Session = new Proxy(session, {
    get(target, property) {
      if (LISTENER_METHODS.has(property)) {
        return (event: string | symbol, listener: (...args: unknown[]) => void) => {
          added.push([event, listener]);
          (target[property as 'on'] as (e: string | symbol, l: (...args: unknown[]) => void) => unknown).call(target, event, listener);
          return proxy;
        };
      }
      if (property === 'request') {
        return (...args: Parameters<ClientHttp2Session['request']>) => {
          const base = target.closed || target.destroyed ? pool.live() : target;
          return failUnanswered(base.request(...args));
        };
      }
      if (property === 'close') {
        return (callback?: () => void) => {
          if (!released) for (const [event, listener] of added) target.off(event, listener);
          released = true;
          callback?.();
        };
      }
      if (property === 'closed') return released || target.closed;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return proxy;
}

function failUnanswered(stream: ClientHttp2Stream): ClientHttp2Stream {
  let settled = false;
  stream.once('response', () => (settled = true));
  stream.once('error', () => (settled = true));
  stream.once('close', () => {
    if (!settled) stream.emit('error', Object.assign(new Error(`FCM connection closed before the answer (stream reset ${stream.rstCode ?? 'unknown'})`), { code: 'ECONNRESET' }));
  });
  return stream;
}

function hostOf(authority: unknown): string | undefined {
  try {
    return new URL(String(authority)).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Calls `call` (a `messaging.sendEach(...)`) with `http2.connect` for FCM's
 * host answered from `sessions`, only for the call's synchronous part. With
 * `mustSee`, a call that never connected is refused (firebase-admin changed
 * how it connects: a redirected client must not silently reach Google).
 */
export function withFcmSessions<T>(sessions: FcmSessions, call: () => Promise<T>, options: { mustSee?: boolean } = {}): Promise<T> {
  const original = http2.connect;
  let seen = 0;
  const connect: Connect = (authority, connectOptions) => original(authority, connectOptions);
  const lending = (authority: string | URL, optionsOrListener?: SecureClientSessionOptions | ConnectListener, listener?: ConnectListener) => {
    const connectOptions = typeof optionsOrListener === 'function' ? {} : (optionsOrListener ?? {});
    const onConnect = typeof optionsOrListener === 'function' ? optionsOrListener : listener;
    if (hostOf(authority) !== FCM_HOST) return original(authority, connectOptions, onConnect);
    seen += 1;
    return sessions.lend(connect, authority, connectOptions);
  };
  let result: Promise<T>;
  http2.connect = lending;
  try {
    result = call();
  } finally {
    http2.connect = original;
  }
  if (seen === 0 && options.mustSee === true) {
    result.catch(() => undefined);
    return Promise.reject(new AppError('INVALID_CONFIG', 'FCM_ENDPOINT redirect did not see firebase-admin open its HTTP/2 session; see fcm-sessions.ts'));
  }
  return result;
}
