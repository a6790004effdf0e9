/** A project's Push Kit credential (libs/admin HmsCredential): the app id and the OAuth client of AppGallery Connect. */
export interface HmsCredential {
  appId: string;
  clientId: string;
  clientSecret: string;
}

/** An access token as Huawei's OAuth server grants it. */
export interface HmsAccessToken {
  accessToken: string;
  /** Seconds the token lives (Huawei grants 3,600). */
  expiresIn: number;
}

/** The OAuth server refused the client id or secret: no send can succeed until the credential is fixed. */
export class HmsCredentialRefused extends Error {
  readonly reason: string;

  constructor(reason: string) {
    super(`Huawei's OAuth server refused the client credentials (${reason})`);
    this.reason = reason;
  }
}

/** Fetches a token with `grant_type=client_credentials`; throws HmsCredentialRefused when refused, any other error when unreachable. */
export type HmsTokenFetcher = (credential: HmsCredential) => Promise<HmsAccessToken>;

interface Cached {
  token: string;
  /** Refresh at or after this time (ms), before the token actually expires. */
  refreshAt: number;
}

/** Refreshed this long before expiry (or at half its life, if shorter), so a send never carries a token about to lapse in flight. */
const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * OAuth 2.0 client-credentials tokens per credential (app id and client
 * id: a rotated secret makes a new entry), refreshed before expiry. At most
 * one fetch is in flight per credential: a campaign's concurrent batches all
 * wait for the same refresh instead of each asking Huawei.
 */
export class HmsTokenCache {
  readonly #fetch: HmsTokenFetcher;
  readonly #now: () => number;
  readonly #tokens = new Map<string, Cached>();
  readonly #inFlight = new Map<string, Promise<string>>();

  constructor(fetcher: HmsTokenFetcher, now: () => number = Date.now) {
    this.#fetch = fetcher;
    this.#now = now;
  }

  /** A token valid for a while yet, fetched only when there is none. */
  async token(credential: HmsCredential): Promise<string> {
    const key = keyOf(credential);
    const cached = this.#tokens.get(key);
    if (cached !== undefined && this.#now() < cached.refreshAt) return cached.token;
    const pending = this.#inFlight.get(key);
    if (pending !== undefined) return pending;
    const fetching = this.#refresh(key, credential).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, fetching);
    return fetching;
  }

  /** Push Kit refused `token` (expired early, revoked): forget it, unless a newer one already replaced it. */
  invalidate(credential: HmsCredential, token: string): void {
    const key = keyOf(credential);
    if (this.#tokens.get(key)?.token === token) this.#tokens.delete(key);
  }

  async #refresh(key: string, credential: HmsCredential): Promise<string> {
    const granted = await this.#fetch(credential);
    const lifetimeMs = granted.expiresIn * 1000;
    const refreshAt = this.#now() + Math.max(0, lifetimeMs - Math.min(REFRESH_MARGIN_MS, lifetimeMs / 2));
    this.#tokens.set(key, { token: granted.accessToken, refreshAt });
    return granted.accessToken;
  }
}

function keyOf(credential: HmsCredential): string {
  return `${credential.appId}\u0000${credential.clientId}\u0000${credential.clientSecret}`;
}
