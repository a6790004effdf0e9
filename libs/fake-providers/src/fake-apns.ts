import http2, { type IncomingHttpHeaders, type Http2Session, type ServerHttp2Stream } from 'node:http2';
import { checkApnsRequest, type ApnsKeyRegistration, type ApnsRule } from './apns-checks.ts';
import { MAX_BODY_BYTES, plainHeaders, respondJson } from './http.ts';
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
  /** TLS connections accepted since start (a client that reuses its connection adds none per request). */
  readonly connections: number;
  /** Ends every open connection, as a server restarting or shedding load would. */
  dropConnections(): Promise<void>;
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
 * An accepted push as handed to listeners. Headers and payload are worked out
 * on first read: a benchmark listening for tokens alone never pays for them.
 */
class AcceptedPush implements ApnsDelivery {
  #headers: Record<string, string> | undefined;
  #payload: unknown;
  #parsed = false;
  readonly token: string;
  readonly apnsId: string;
  readonly receivedAt: number;
  readonly #rawHeaders: IncomingHttpHeaders;
  readonly #body: Buffer;
  constructor(token: string, apnsId: string, receivedAt: number, rawHeaders: IncomingHttpHeaders, body: Buffer) {
    this.token = token;
    this.apnsId = apnsId;
    this.receivedAt = receivedAt;
    this.#rawHeaders = rawHeaders;
    this.#body = body;
  }

  get headers(): Record<string, string> {
    if (this.#headers === undefined) {
      const { authorization: _authorization, ...kept } = plainHeaders(this.#rawHeaders);
      this.#headers = kept;
    }
    return this.#headers;
  }

  get payload(): unknown {
    if (!this.#parsed) {
      this.#payload = parsePayload(this.#body);
      this.#parsed = true;
    }
    return this.#payload;
  }

  toJSON() {
    return { token: this.token, apnsId: this.apnsId, headers: this.headers, payload: this.payload, receivedAt: this.receivedAt };
  }
}

/** Header values the checks read; HTTP/2 gives single strings for every one of them. */
function headerView(headers: IncomingHttpHeaders): Record<string, string> {
  return headers as Record<string, string>;
}

/**
 * An APNs look-alike on 127.0.0.1 speaking HTTP/2 over TLS, as
 * `api.push.apple.com` does (no HTTP/1.1), with token-based auth checks and
 * token-prefix error injection. Lean enough to benchmark against: the core
 * stream API (no compat request/response objects), a provider token verified
 * once per HTTP/2 session, and nothing copied unless a listener reads it.
 */
export async function startFakeApns(options: FakeApnsOptions = {}): Promise<FakeApns> {
  const tls = options.tls ?? (await createFakeTls());
  const keys = new Map((options.keys ?? []).map((key) => [key.keyId, key]));
  // Per session, verified provider tokens; replaced (so emptied) when the accepted keys change.
  let verifiedBySession = new WeakMap<Http2Session, Map<string, number>>();
  const topics = options.topics === undefined ? undefined : new Set(options.topics);
  const rules = createRuleBook(options.rules);
  const recorder = createRecorder<ApnsDelivery>({ record: options.record ?? true, name: 'fake APNs' });
  const now = options.now ?? Date.now;
  let latencyMs = options.latencyMs ?? 0;
  // The last Live Activity timestamp accepted per token (only liveactivity pushes add to it).
  const liveActivityTimestamps = new Map<string, number>();

  function verifiedTokensOf(session: Http2Session | undefined): Map<string, number> | undefined {
    if (session === undefined) return undefined;
    let cache = verifiedBySession.get(session);
    if (cache === undefined) {
      cache = new Map();
      verifiedBySession.set(session, cache);
    }
    return cache;
  }

  function answer(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, body: Buffer): void {
    const view = headerView(headers);
    const verifiedTokens = verifiedTokensOf(stream.session);
    const result = checkApnsRequest(
      { method: view[':method'] ?? '', path: view[':path'] ?? '', headers: view, body },
      { keys, topics, rules, now: now(), liveActivityTimestamps, ...(verifiedTokens === undefined ? {} : { verifiedTokens }) },
    );
    if (stream.destroyed) return;
    if (result.kind === 'accepted') {
      recorder.accept(new AcceptedPush(result.token, result.apnsId, now(), headers, body));
      stream.respond({ ':status': 200, 'apns-id': result.apnsId }, { endStream: true });
      return;
    }
    recorder.reject(result.reason);
    const extra: Record<string, string> = { 'apns-id': result.apnsId };
    if (result.retryAfterSeconds !== undefined) extra['retry-after'] = String(result.retryAfterSeconds);
    respondJson(stream, result.status, result.timestamp === undefined ? { reason: result.reason } : { reason: result.reason, timestamp: result.timestamp }, extra);
  }

  const server = http2.createSecureServer({ key: tls.key, cert: tls.cert });
  server.on('stream', (stream, headers) => {
    const done = recorder.begin();
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    stream.once('close', done);
    // The client went away mid-request: nothing to answer.
    stream.on('error', () => undefined);
    stream.once('end', () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      if (latencyMs > 0) setTimeout(() => answer(stream, headers, body), latencyMs);
      else answer(stream, headers, body);
    });
  });
  const base = await fakeServerBase(server, options.port ?? 0, { ca: tls.ca, recorder, rules, setLatency: (ms) => (latencyMs = ms) });
  // Object.assign keeps the base's getters (deliveries, stats) live.
  return Object.assign(base, {
    registerKey(key: Parameters<FakeApns['registerKey']>[0]) {
      keys.set(key.keyId, key);
      verifiedBySession = new WeakMap();
    },
  });
}
