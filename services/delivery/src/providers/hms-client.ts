import { Agent, request } from 'node:https';
import { buildHmsMessage, buildHmsSendBody, HMS_MAX_TOKENS, hmsTokenProblem, type HmsMessage, type PushMessage } from '@herald/push-payloads';
import { chunk, createLimiter } from './concurrency.ts';
import { hmsOutcome, type HmsRawResult } from './hms-outcome.ts';
import { HmsCredentialRefused, HmsTokenCache, type HmsAccessToken, type HmsCredential } from './hms-token-cache.ts';
import type { DeviceResult, DeviceTarget, ProviderOutcome } from './push-message.ts';

/** Huawei's production hosts (developer.huawei.com → Push Kit → Server APIs). */
export const HMS_DEFAULT_ENDPOINT = 'https://push-api.cloud.huawei.com';
export const HMS_DEFAULT_TOKEN_ENDPOINT = 'https://oauth-login.cloud.huawei.com/oauth2/v3/token';

export interface HmsClientOptions {
  /** Origin of the Push Kit API (HMS_ENDPOINT). */
  endpoint?: string | undefined;
  /** The OAuth token URL (HMS_TOKEN_ENDPOINT). */
  tokenEndpoint?: string | undefined;
  /** Multicast requests in flight at once, per process. */
  maxInFlight: number;
  timeoutMs: number;
  /** CA to trust besides the system's (tests: the fake's). */
  ca?: string | undefined;
  now?: () => number;
}

export interface HmsClient {
  /** One outcome per target, in order: tokens go out in multicast requests of up to 1,000. */
  send(credential: HmsCredential, targets: readonly DeviceTarget[], message: PushMessage): Promise<DeviceResult[]>;
  readonly tokens: HmsTokenCache;
  close(): void;
}

/** Reasons Herald gives itself, without an answer from Push Kit. */
export const HMS_LOCAL_REASONS = { badToken: 'InvalidTokenForm', credentialRefused: 'OAuthClientRefused', oauthUnavailable: 'OAuthUnavailable' } as const;

interface Answer {
  status: number;
  body: string;
  retryAfter?: string | undefined;
}

function post(agent: Agent, url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, timeout: timeoutMs, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (part: Buffer) => chunks.push(part));
      response.on('end', () => {
        const retryAfter = response.headers['retry-after'];
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ...(retryAfter === undefined ? {} : { retryAfter }) });
      });
      response.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(body);
  });
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined);

/**
 * Sends to Huawei Push Kit (HMS Core, API v1): an OAuth 2.0 client-credentials
 * token per project from the token cache, then `POST /v1/<app id>/messages:send`
 * with up to 1,000 tokens per request. A token Push Kit calls expired or
 * invalid is refreshed and the request sent again once. Never retries
 * anything else itself: the sender does.
 */
export function createHmsClient(options: HmsClientOptions): HmsClient {
  const endpoint = (options.endpoint ?? HMS_DEFAULT_ENDPOINT).replace(/\/$/, '');
  const tokenEndpoint = options.tokenEndpoint ?? HMS_DEFAULT_TOKEN_ENDPOINT;
  const now = options.now ?? Date.now;
  const agent = new Agent({ keepAlive: true, ...(options.ca === undefined ? {} : { ca: options.ca }) });
  const limiter = createLimiter(options.maxInFlight, 'HMS_MAX_IN_FLIGHT');

  const fetchToken = async (credential: HmsCredential): Promise<HmsAccessToken> => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: credential.clientId, client_secret: credential.clientSecret }).toString();
    const answer = await post(agent, tokenEndpoint, { 'content-type': 'application/x-www-form-urlencoded' }, form, options.timeoutMs);
    const body = parseJson(answer.body);
    if (answer.status === 200 && typeof body?.access_token === 'string' && typeof body.expires_in === 'number') {
      return { accessToken: body.access_token, expiresIn: body.expires_in };
    }
    // 400/401 name the refusal (invalid_client, …); anything else is the token server failing for now.
    if (answer.status === 400 || answer.status === 401) throw new HmsCredentialRefused(asString(body?.error) ?? `HTTP ${answer.status}`);
    throw Object.assign(new Error(`HMS token endpoint answered ${answer.status}`), { code: 'OAuthUnavailable' });
  };
  const tokens = new HmsTokenCache(fetchToken, now);

  const sendOnce = async (credential: HmsCredential, accessToken: string, body: string): Promise<HmsRawResult> => {
    try {
      const url = `${endpoint}/v1/${encodeURIComponent(credential.appId)}/messages:send`;
      const answer = await post(agent, url, { 'content-type': 'application/json; charset=UTF-8', authorization: `Bearer ${accessToken}` }, body, options.timeoutMs);
      const json = parseJson(answer.body);
      return { httpStatus: answer.status, code: asString(json?.code), msg: asString(json?.msg), requestId: asString(json?.requestId), retryAfter: answer.retryAfter };
    } catch (error) {
      return { error: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
    }
  };

  /** Outcomes for one chunk, refreshing the OAuth token and sending again once when Push Kit refuses it. */
  const sendChunk = async (credential: HmsCredential, message: HmsMessage, chunkTokens: readonly string[]): Promise<ProviderOutcome[]> => {
    const body = JSON.stringify(buildHmsSendBody(message, chunkTokens));
    let outcome: ReturnType<typeof hmsOutcome> | undefined;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      let accessToken: string;
      try {
        accessToken = await tokens.token(credential);
      } catch (error) {
        const refused = error instanceof HmsCredentialRefused;
        return chunkTokens.map(() => (refused ? { outcome: 'rejected', reason: HMS_LOCAL_REASONS.credentialRefused } : { outcome: 'retryable', reason: HMS_LOCAL_REASONS.oauthUnavailable }));
      }
      outcome = hmsOutcome(await limiter.run(() => sendOnce(credential, accessToken, body)), chunkTokens, now());
      if (!outcome.refreshToken) break;
      tokens.invalidate(credential, accessToken);
    }
    return outcome!.outcomes;
  };

  return {
    tokens,
    async send(credential, targets, message) {
      const results = new Map<string, DeviceResult>();
      const sendable: DeviceTarget[] = [];
      for (const target of targets) {
        // A token of no form Push Kit takes is dead: deactivated without asking (it would fail the whole multicast with 80100001).
        if (hmsTokenProblem(target.token) === undefined) sendable.push(target);
        else results.set(target.device_id, { device_id: target.device_id, outcome: 'token-invalid', reason: HMS_LOCAL_REASONS.badToken });
      }
      const built = buildHmsMessage(message);
      await Promise.all(
        chunk(sendable, HMS_MAX_TOKENS).map(async (part) => {
          const outcomes = await sendChunk(credential, built, part.map((target) => target.token));
          part.forEach((target, index) => results.set(target.device_id, { device_id: target.device_id, ...outcomes[index]! }));
        }),
      );
      return targets.map((target) => results.get(target.device_id)!);
    },
    close() {
      agent.destroy();
    },
  };
}
