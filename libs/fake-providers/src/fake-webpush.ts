import { randomBytes } from 'node:crypto';
import http2, { type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { setTimeout as delay } from 'node:timers/promises';
import { fakeServerBase } from './fake-server.ts';
import { plainHeaders, readBody, sendJson } from './http.ts';
import { createRecorder, type FakeStats } from './recorder.ts';
import { createRuleBook } from './rules.ts';
import { createFakeTls, type FakeTls } from './tls.ts';
import { checkVapid, decryptMessage, newSubscriptionKeys, WEBPUSH_MAX_BODY_BYTES, type FakeSubscriptionState, type WebPushRule } from './webpush-checks.ts';

export interface FakeWebPushOptions {
  tls?: FakeTls;
  /** 0 (default) picks a free port. */
  port?: number;
  rules?: readonly WebPushRule[];
  latencyMs?: number;
  record?: boolean;
  now?: () => number;
}

/** `PushSubscription.toJSON()` as a browser gives it. */
export interface FakeBrowserSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface WebPushDelivery {
  /** The subscription's id (the last path segment of its endpoint). */
  id: string;
  endpoint: string;
  /** The decrypted message, as the browser's service worker would read it. */
  plaintext: string;
  /** `ttl`, `urgency`, `topic`, `content-encoding`, … as received. */
  headers: Record<string, string>;
  /** The VAPID key and subject that signed it. */
  vapid: { key: string; subject: string };
  receivedAt: number;
}

export interface FakeWebPush {
  readonly url: string;
  readonly port: number;
  readonly ca: string;
  readonly deliveries: readonly WebPushDelivery[];
  readonly stats: Readonly<FakeStats>;
  /** A new subscription, as `pushManager.subscribe` gives a page: `id` starts with `label` (rules match it). */
  subscribe(options?: { label?: string; applicationServerKey?: string }): FakeBrowserSubscription;
  /** The browser unsubscribed (or the subscription expired): 410 from now on. */
  expire(endpoint: string): void;
  setRules(rules: readonly WebPushRule[]): void;
  setLatency(ms: number): void;
  waitForDeliveries(count: number, timeoutMs?: number): Promise<readonly WebPushDelivery[]>;
  onDelivery(listener: (delivery: WebPushDelivery) => void): () => void;
  reset(): void;
  readonly connections: number;
  dropConnections(): Promise<void>;
  close(): Promise<void>;
}

const PUSH_PATH = /^\/push\/([A-Za-z0-9_-]+)$/;

/**
 * A browser vendor's push service (RFC 8030) on 127.0.0.1, over HTTPS
 * (HTTP/1.1 and HTTP/2). It checks every message as a push service and the
 * browser would: the VAPID header (RFC 8292: signature, audience, expiry
 * ≤ 24 h, subject, and the key the subscription was made with), `TTL`,
 * `Content-Encoding: aes128gcm`, the 4096-byte body limit, and it decrypts
 * the body with the subscription's private key and auth secret (RFC 8291),
 * recording the plaintext. Rules by subscription id prefix answer
 * 404/410/413/429/5xx instead.
 */
export async function startFakeWebPush(options: FakeWebPushOptions = {}): Promise<FakeWebPush> {
  const tls = options.tls ?? (await createFakeTls());
  const rules = createRuleBook(options.rules);
  const recorder = createRecorder<WebPushDelivery>({ record: options.record ?? true, name: 'fake Web Push' });
  const now = options.now ?? Date.now;
  const subscriptions = new Map<string, FakeSubscriptionState>();
  let latencyMs = options.latencyMs ?? 0;
  let origin = '';

  const refuse = (response: Http2ServerResponse, status: number, reason: string, headers: Record<string, string> = {}) => {
    recorder.reject(reason);
    sendJson(response, status, { code: status, errno: 0, error: reason }, headers);
  };

  async function handle(request: Http2ServerRequest, response: Http2ServerResponse): Promise<void> {
    const match = request.method === 'POST' ? PUSH_PATH.exec(request.url) : null;
    if (match === null) return sendJson(response, 404, { error: 'not a push resource' });
    const done = recorder.begin();
    try {
      const body = await readBody(request);
      if (latencyMs > 0) await delay(latencyMs);
      const id = match[1]!;
      const subscription = subscriptions.get(id);
      if (subscription === undefined) return refuse(response, 404, 'NoSuchSubscription');
      if (subscription.gone) return refuse(response, 410, 'SubscriptionExpired');
      const rule = rules.take(id);
      if (rule !== undefined) return refuse(response, rule.status, `Rule${rule.status}`, rule.retryAfterSeconds === undefined ? {} : { 'retry-after': String(rule.retryAfterSeconds) });
      const headers = plainHeaders(request.headers);
      const vapid = checkVapid(headers.authorization, { origin, applicationServerKey: subscription.applicationServerKey, nowS: Math.floor(now() / 1000) });
      if (!vapid.ok) return refuse(response, vapid.status, vapid.reason);
      if (headers.ttl === undefined || !/^\d+$/.test(headers.ttl)) return refuse(response, 400, 'MissingTTL');
      if (headers['content-encoding'] !== 'aes128gcm') return refuse(response, 415, 'UnsupportedEncoding');
      if (body.length > WEBPUSH_MAX_BODY_BYTES) return refuse(response, 413, 'PayloadTooLarge');
      const plaintext = decryptMessage(body, subscription);
      if (plaintext === undefined) return refuse(response, 400, 'DecryptionFailed');
      const messageId = randomBytes(8).toString('hex');
      recorder.accept({ id, endpoint: `${origin}/push/${id}`, plaintext, headers, vapid: { key: vapid.key, subject: vapid.subject }, receivedAt: now() });
      response.writeHead(201, { location: `${origin}/message/${messageId}`, 'content-length': 0 });
      response.end();
    } finally {
      done();
    }
  }

  const server = http2.createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }, (request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent && !response.destroyed) sendJson(response, 500, { error: 'internal' });
    });
  });
  const base = await fakeServerBase(server, options.port ?? 0, { ca: tls.ca, recorder, rules, setLatency: (ms) => (latencyMs = ms) });
  origin = base.url;

  return {
    ...base,
    get deliveries() {
      return recorder.deliveries;
    },
    get stats() {
      return recorder.stats;
    },
    get connections() {
      return base.connections;
    },
    subscribe(subscribeOptions = {}) {
      const id = `${subscribeOptions.label ?? 'sub-'}${randomBytes(12).toString('base64url')}`;
      const { ecdh, auth } = newSubscriptionKeys();
      subscriptions.set(id, { id, ecdh, auth, applicationServerKey: subscribeOptions.applicationServerKey, gone: false });
      return { endpoint: `${origin}/push/${id}`, expirationTime: null, keys: { p256dh: ecdh.getPublicKey('base64url'), auth: auth.toString('base64url') } };
    },
    expire(endpoint) {
      const id = PUSH_PATH.exec(new URL(endpoint).pathname)?.[1];
      const subscription = id === undefined ? undefined : subscriptions.get(id);
      if (subscription !== undefined) subscription.gone = true;
    },
  };
}
