import http2, { type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { setTimeout as delay } from 'node:timers/promises';
import { checkApnsRequest, type ApnsKeyRegistration, type ApnsRule } from './apns-checks.ts';
import { plainHeaders, readBody, sendJson } from './http.ts';
import { fakeServerBase } from './fake-server.ts';
import { createRecorder, type FakeStats } from './recorder.ts';
import { createRuleBook } from './rules.ts';
import { createFakeTls, type FakeTls } from './tls.ts';

export interface FakeApnsOptions {
  /** Share one CA between fakes so a single NODE_EXTRA_CA_CERTS file trusts them all; generated when absent. */
  tls?: FakeTls;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Provider keys whose ES256 JWTs are accepted. More can be added with `registerKey`. */
  keys?: readonly ApnsKeyRegistration[];
  /** Accepted `apns-topic` values; absent accepts any. */
  topics?: readonly string[];
  rules?: readonly ApnsRule[];
  /** Added before every answer. */
  latencyMs?: number;
  /** Keep every accepted delivery in memory (default true); benchmarks turn it off and read `stats`. */
  record?: boolean;
  /** Clock for JWT age checks. */
  now?: () => number;
}

export interface ApnsDelivery {
  token: string;
  apnsId: string;
  /** Request headers without pseudo-headers and without `authorization`. */
  headers: Record<string, string>;
  /** The JSON body, parsed; the raw text when it is not JSON. */
  payload: unknown;
  receivedAt: number;
}

export interface FakeApns {
  /** Base URL for APNS_ENDPOINT, e.g. `https://127.0.0.1:53211`. */
  readonly url: string;
  readonly port: number;
  /** PEM of the CA that signed the server certificate. */
  readonly ca: string;
  readonly deliveries: readonly ApnsDelivery[];
  readonly stats: Readonly<FakeStats>;
  registerKey(key: ApnsKeyRegistration): void;
  setRules(rules: readonly ApnsRule[]): void;
  setLatency(ms: number): void;
  waitForDeliveries(count: number, timeoutMs?: number): Promise<readonly ApnsDelivery[]>;
  onDelivery(listener: (delivery: ApnsDelivery) => void): () => void;
  /** Forgets deliveries, counters and rule use counts; keys, rules and latency stay. */
  reset(): void;
  close(): Promise<void>;
}

function parsePayload(body: Buffer): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * An APNs look-alike on 127.0.0.1 speaking HTTP/2 over TLS, as
 * `api.push.apple.com` does (no HTTP/1.1), with token-based auth checks and
 * token-prefix error injection.
 */
export async function startFakeApns(options: FakeApnsOptions = {}): Promise<FakeApns> {
  const tls = options.tls ?? (await createFakeTls());
  const keys = new Map((options.keys ?? []).map((key) => [key.keyId, key]));
  const verifiedTokens = new Set<string>();
  const topics = options.topics === undefined ? undefined : new Set(options.topics);
  const rules = createRuleBook(options.rules);
  const recorder = createRecorder<ApnsDelivery>({ record: options.record ?? true, name: 'fake APNs' });
  const now = options.now ?? Date.now;
  let latencyMs = options.latencyMs ?? 0;

  async function handle(request: Http2ServerRequest, response: Http2ServerResponse): Promise<void> {
    const done = recorder.begin();
    try {
      const headers = plainHeaders(request.headers);
      const body = await readBody(request);
      const answer = checkApnsRequest({ method: request.method, path: request.url, headers, body }, { keys, topics, rules, now: now(), verifiedTokens });
      if (latencyMs > 0) await delay(latencyMs);
      if (answer.kind === 'accepted') {
        const { authorization: _authorization, ...kept } = headers;
        recorder.accept({ token: answer.token, apnsId: answer.apnsId, headers: kept, payload: parsePayload(body), receivedAt: now() });
        response.writeHead(200, { 'apns-id': answer.apnsId });
        response.end();
        return;
      }
      recorder.reject(answer.reason);
      const extra: Record<string, string> = { 'apns-id': answer.apnsId };
      if (answer.retryAfterSeconds !== undefined) extra['retry-after'] = String(answer.retryAfterSeconds);
      sendJson(response, answer.status, answer.timestamp === undefined ? { reason: answer.reason } : { reason: answer.reason, timestamp: answer.timestamp }, extra);
    } finally {
      done();
    }
  }

  const server = http2.createSecureServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    handle(request, response).catch(() => {
      // The client went away mid-request; nothing to answer.
      if (!response.headersSent && !response.destroyed) sendJson(response, 500, { reason: 'InternalServerError' });
    });
  });
  const base = await fakeServerBase(server, options.port ?? 0, { ca: tls.ca, recorder, rules, setLatency: (ms) => (latencyMs = ms) });
  // Object.assign keeps the base's getters (deliveries, stats) live.
  return Object.assign(base, {
    registerKey(key: Parameters<FakeApns['registerKey']>[0]) {
      keys.set(key.keyId, key);
      verifiedTokens.clear();
    },
  });
}
