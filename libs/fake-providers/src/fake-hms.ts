import { randomBytes } from 'node:crypto';
import http2, { type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { setTimeout as delay } from 'node:timers/promises';
import { fakeServerBase } from './fake-server.ts';
import { readBody, sendJson } from './http.ts';
import { checkHmsBody, HMS_ANSWERS, type HmsAnswer, type HmsAppRegistration, type HmsRule } from './hms-checks.ts';
import { createRecorder, type FakeStats } from './recorder.ts';
import { createRuleBook } from './rules.ts';
import { createFakeTls, type FakeTls } from './tls.ts';

export interface FakeHmsOptions {
  tls?: FakeTls;
  port?: number;
  apps?: readonly HmsAppRegistration[];
  rules?: readonly HmsRule[];
  /** Lifetime of the access tokens it grants (Huawei: 3600). */
  tokenTtlSeconds?: number;
  latencyMs?: number;
  record?: boolean;
  now?: () => number;
}

/** One accepted multicast request. */
export interface HmsDelivery {
  appId: string;
  /** The tokens it was accepted for (illegal ones left out). */
  tokens: string[];
  /** The message as sent, without `token`. */
  message: Record<string, unknown>;
  requestId: string;
  receivedAt: number;
}

export interface FakeHms {
  readonly url: string;
  /** The OAuth token URL (HMS_TOKEN_ENDPOINT). */
  readonly tokenUrl: string;
  readonly port: number;
  readonly ca: string;
  readonly deliveries: readonly HmsDelivery[];
  readonly stats: Readonly<FakeStats>;
  /** Access tokens granted so far. */
  readonly tokensGranted: number;
  registerApp(app: HmsAppRegistration): void;
  /** Every token granted so far expires now (80200003 from here on). */
  expireTokens(): void;
  setRules(rules: readonly HmsRule[]): void;
  setLatency(ms: number): void;
  waitForDeliveries(count: number, timeoutMs?: number): Promise<readonly HmsDelivery[]>;
  onDelivery(listener: (delivery: HmsDelivery) => void): () => void;
  reset(): void;
  readonly connections: number;
  dropConnections(): Promise<void>;
  close(): Promise<void>;
}

const TOKEN_PATH = '/oauth2/v3/token';
const SEND_PATH = /^\/v1\/([^/]+)\/messages:send$/;

/**
 * Huawei Push Kit on 127.0.0.1 over HTTPS: the OAuth 2.0 token endpoint
 * (client_credentials, checking the client id and secret, granting tokens
 * that expire) and `POST /v1/<app id>/messages:send`, checking the bearer
 * (unknown: 80200001, expired: 80200003, another app's: 80300002) and the
 * body as Push Kit does. Token-prefix rules answer partial success
 * (illegal_tokens), an expired token, 81000001, 429 or 5xx instead.
 */
export async function startFakeHms(options: FakeHmsOptions = {}): Promise<FakeHms> {
  const tls = options.tls ?? (await createFakeTls());
  const rules = createRuleBook(options.rules);
  const recorder = createRecorder<HmsDelivery>({ record: options.record ?? true, name: 'fake HMS' });
  const now = options.now ?? Date.now;
  const ttlSeconds = options.tokenTtlSeconds ?? 3600;
  const apps = new Map<string, HmsAppRegistration>((options.apps ?? []).map((app) => [app.clientId, app]));
  const granted = new Map<string, { appId: string; expiresAt: number }>();
  let grantedCount = 0;
  let latencyMs = options.latencyMs ?? 0;

  const answer = (response: Http2ServerResponse, result: HmsAnswer, headers: Record<string, string> = {}) => {
    if (result.code !== HMS_ANSWERS.success.code) recorder.reject(result.code);
    sendJson(response, result.status, { code: result.code, msg: result.msg, requestId: randomBytes(8).toString('hex') }, headers);
  };

  async function grant(request: Http2ServerRequest, response: Http2ServerResponse): Promise<void> {
    const form = new URLSearchParams((await readBody(request)).toString('utf8'));
    if (form.get('grant_type') !== 'client_credentials') return sendJson(response, 400, { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' });
    const app = apps.get(form.get('client_id') ?? '');
    if (app === undefined || app.clientSecret !== form.get('client_secret')) return sendJson(response, 400, { error: 'invalid_client', error_description: 'client id or secret is wrong' });
    const token = randomBytes(24).toString('base64');
    granted.set(token, { appId: app.appId, expiresAt: now() + ttlSeconds * 1000 });
    grantedCount += 1;
    sendJson(response, 200, { access_token: token, expires_in: ttlSeconds, token_type: 'Bearer' });
  }

  async function send(appId: string, request: Http2ServerRequest, response: Http2ServerResponse): Promise<void> {
    const done = recorder.begin();
    try {
      const text = (await readBody(request)).toString('utf8');
      if (latencyMs > 0) await delay(latencyMs);
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const session = bearer === undefined ? undefined : granted.get(bearer);
      if (session === undefined) return answer(response, HMS_ANSWERS.authFailed);
      if (now() >= session.expiresAt) return answer(response, HMS_ANSWERS.tokenExpired);
      if (session.appId !== appId) return answer(response, HMS_ANSWERS.noPermission);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return answer(response, HMS_ANSWERS.badStructure('the body is not JSON'));
      }
      const checked = checkHmsBody(json);
      if (!checked.ok) return answer(response, checked.answer);
      const illegal = new Set<string>();
      for (const token of checked.tokens) {
        const rule = rules.take(token);
        if (rule === undefined) continue;
        if (rule.answer === 'illegal') illegal.add(token);
        else if (rule.answer === 'token-expired') return answer(response, HMS_ANSWERS.tokenExpired);
        else if (rule.answer === 'internal-error') return answer(response, HMS_ANSWERS.internal);
        else return answer(response, { status: rule.answer, code: String(rule.answer), msg: 'injected' }, rule.retryAfterSeconds === undefined ? {} : { 'retry-after': String(rule.retryAfterSeconds) });
      }
      const accepted = checked.tokens.filter((token) => !illegal.has(token));
      if (accepted.length === 0) return answer(response, HMS_ANSWERS.allInvalid);
      const requestId = randomBytes(8).toString('hex');
      recorder.accept({ appId, tokens: accepted, message: checked.message, requestId, receivedAt: now() });
      const msg = illegal.size === 0 ? 'Success' : JSON.stringify({ success: accepted.length, failure: illegal.size, illegal_tokens: [...illegal] });
      sendJson(response, 200, { code: illegal.size === 0 ? '80000000' : '80100000', msg, requestId });
    } finally {
      done();
    }
  }

  const server = http2.createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true }, (request, response) => {
    const path = request.url;
    const match = request.method === 'POST' ? SEND_PATH.exec(path) : null;
    const handled = request.method === 'POST' && path === TOKEN_PATH ? grant(request, response) : match !== null ? send(decodeURIComponent(match[1]!), request, response) : Promise.resolve(sendJson(response, 404, { error: 'not found' }));
    handled.catch(() => {
      if (!response.headersSent && !response.destroyed) sendJson(response, 500, { error: 'internal' });
    });
  });
  const base = await fakeServerBase(server, options.port ?? 0, { ca: tls.ca, recorder, rules, setLatency: (ms) => (latencyMs = ms) });

  return {
    ...base,
    tokenUrl: `${base.url}${TOKEN_PATH}`,
    get deliveries() {
      return recorder.deliveries;
    },
    get stats() {
      return recorder.stats;
    },
    get connections() {
      return base.connections;
    },
    get tokensGranted() {
      return grantedCount;
    },
    registerApp(app) {
      apps.set(app.clientId, app);
    },
    expireTokens() {
      for (const session of granted.values()) session.expiresAt = Math.min(session.expiresAt, now());
    },
  };
}
