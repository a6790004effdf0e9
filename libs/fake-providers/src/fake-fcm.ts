import http2, { type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { setTimeout as delay } from 'node:timers/promises';
import { checkSendRequest, checkTokenRequest, type FcmAccountRegistration, type FcmRule, type IssuedAccessToken } from './fcm-checks.ts';
import { plainHeaders, readBody, sendJson } from './http.ts';
import { fakeServerBase } from './fake-server.ts';
import { createRecorder, type FakeStats } from './recorder.ts';
import { createRuleBook } from './rules.ts';
import { createFakeTls, type FakeTls } from './tls.ts';

export interface FakeFcmOptions {
  /** Share one CA between fakes so a single NODE_EXTRA_CA_CERTS file trusts them all; generated when absent. */
  tls?: FakeTls;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Service accounts whose JWT-bearer assertions are accepted. More with `registerAccount`. */
  accounts?: readonly FcmAccountRegistration[];
  rules?: readonly FcmRule[];
  /** Added before every `messages:send` answer (not OAuth). */
  latencyMs?: number;
  /** Keep every accepted delivery in memory (default true); benchmarks turn it off and read `stats`. */
  record?: boolean;
  now?: () => number;
  /** `expires_in` of issued access tokens; Google's is 3599. */
  tokenTtlSeconds?: number;
}

export interface FcmDelivery {
  projectId: string;
  token: string;
  /** `projects/<p>/messages/<id>`, as answered. */
  name: string;
  /** The `message` object as sent, token included. */
  message: Record<string, unknown>;
  headers: Record<string, string>;
  receivedAt: number;
}

export interface FakeFcm {
  /** Base URL for FCM_ENDPOINT, e.g. `https://127.0.0.1:53212`. */
  readonly url: string;
  readonly port: number;
  readonly ca: string;
  readonly deliveries: readonly FcmDelivery[];
  readonly stats: Readonly<FakeStats>;
  readonly oauth: Readonly<{ issued: number; refused: number }>;
  registerAccount(account: FcmAccountRegistration): void;
  setRules(rules: readonly FcmRule[]): void;
  setLatency(ms: number): void;
  waitForDeliveries(count: number, timeoutMs?: number): Promise<readonly FcmDelivery[]>;
  onDelivery(listener: (delivery: FcmDelivery) => void): () => void;
  /** Forgets deliveries, counters and rule use counts; accounts, issued tokens, rules and latency stay. */
  reset(): void;
  /** TLS connections accepted since start (a client that reuses its connection adds none per request). */
  readonly connections: number;
  /** Ends every open connection, as a server restarting or shedding load would. */
  dropConnections(): Promise<void>;
  close(): Promise<void>;
}

/**
 * FCM HTTP v1 and Google's OAuth token endpoint in one server on 127.0.0.1.
 * HTTP/2 with HTTP/1.1 allowed: firebase-admin's `sendEach` speaks HTTP/2,
 * while its OAuth exchange and `send()` use HTTP/1.1.
 */
export async function startFakeFcm(options: FakeFcmOptions = {}): Promise<FakeFcm> {
  const tls = options.tls ?? (await createFakeTls());
  const accounts = new Map((options.accounts ?? []).map((account) => [account.clientEmail, account]));
  const tokens = new Map<string, IssuedAccessToken>();
  const rules = createRuleBook(options.rules);
  const recorder = createRecorder<FcmDelivery>({ record: options.record ?? true, name: 'fake FCM' });
  const now = options.now ?? Date.now;
  const oauth = { issued: 0, refused: 0 };
  let latencyMs = options.latencyMs ?? 0;

  async function handleToken(request: Http2ServerRequest, response: Http2ServerResponse): Promise<void> {
    const body = (await readBody(request)).toString('utf8');
    const answer = checkTokenRequest(body, { accounts, now: now(), ttlSeconds: options.tokenTtlSeconds ?? 3599 });
    if (answer.kind === 'issued') {
      oauth.issued += 1;
      tokens.set(answer.accessToken, answer.grant);
      sendJson(response, 200, answer.body);
    } else {
      oauth.refused += 1;
      sendJson(response, answer.status, answer.body);
    }
  }

  async function handleSend(request: Http2ServerRequest, response: Http2ServerResponse): Promise<void> {
    const done = recorder.begin();
    try {
      const body = await readBody(request);
      const answer = checkSendRequest({ method: request.method, path: request.url, authorization: request.headers.authorization, body }, { tokens, rules, now: now() });
      if (latencyMs > 0) await delay(latencyMs);
      if (answer.kind === 'accepted') {
        const raw = request.headers;
        let headers: Record<string, string> | undefined;
        recorder.accept({
          projectId: answer.projectId,
          token: answer.token,
          name: answer.name,
          message: answer.message,
          // Copied on first read only: a benchmark listening for tokens never pays for it.
          get headers() {
            if (headers === undefined) {
              const { authorization: _authorization, ...kept } = plainHeaders(raw);
              headers = kept;
            }
            return headers;
          },
          receivedAt: now(),
        });
        sendJson(response, 200, { name: answer.name });
        return;
      }
      recorder.reject(answer.reason);
      sendJson(response, answer.status, answer.body, answer.retryAfterSeconds === undefined ? {} : { 'retry-after': String(answer.retryAfterSeconds) });
    } finally {
      done();
    }
  }

  const server = http2.createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }, (request, response) => {
    const path = request.url.split('?')[0];
    const isToken = request.method === 'POST' && (path === '/token' || path === '/o/oauth2/token');
    (isToken ? handleToken(request, response) : handleSend(request, response)).catch(() => {
      if (!response.headersSent && !response.destroyed) sendJson(response, 500, { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } });
    });
  });
  const base = await fakeServerBase(server, options.port ?? 0, { ca: tls.ca, recorder, rules, setLatency: (ms) => (latencyMs = ms) });
  // Object.assign keeps the base's getters (deliveries, stats) live.
  return Object.assign(base, {
    oauth,
    registerAccount(account: Parameters<FakeFcm['registerAccount']>[0]) {
      accounts.set(account.clientEmail, account);
    },
  });
}
