import { currentPublicKey, type WebPushSummary } from '@herald/admin';
import { NotFoundError } from '@herald/errors';

/** Where the projects' VAPID public keys are read (libs/admin WebPushKeyDirectory: the unsealed summaries). */
export interface WebPushKeySource {
  summary(projectId: string): Promise<WebPushSummary | undefined>;
}

export interface WebPushKeyCacheOptions {
  /** How long an answer is kept: a rotation shows within it. */
  ttlMs: number;
  /** Projects remembered at most (strangers may ask for any id: the memory stays bounded). */
  maxEntries: number;
  now?: () => number;
}

export const DEFAULT_WEBPUSH_KEY_CACHE: WebPushKeyCacheOptions = { ttlMs: 5_000, maxEntries: 10_000 };

/**
 * The projects' Web Push public keys, for the unauthenticated public-key
 * route and for registrations (which record the key a subscription was made
 * with). Answers are kept `ttlMs` per project and shared by concurrent
 * callers, so a page load storm asks the store once per project; the
 * route's rate limits bound what a stranger asking for random ids costs.
 */
export class WebPushKeyService {
  readonly #source: WebPushKeySource;
  readonly #options: Required<WebPushKeyCacheOptions>;
  readonly #cache = new Map<string, { at: number; value: Promise<WebPushSummary | undefined> }>();

  constructor(source: WebPushKeySource, options: WebPushKeyCacheOptions = DEFAULT_WEBPUSH_KEY_CACHE) {
    this.#source = source;
    this.#options = { now: Date.now, ...options };
  }

  summary(projectId: string): Promise<WebPushSummary | undefined> {
    const now = this.#options.now();
    const cached = this.#cache.get(projectId);
    if (cached !== undefined && now - cached.at < this.#options.ttlMs) return cached.value;
    const value = this.#source.summary(projectId);
    const entry = { at: now, value };
    this.#cache.delete(projectId);
    this.#cache.set(projectId, entry);
    // Oldest first: a Map iterates in insertion order.
    while (this.#cache.size > this.#options.maxEntries) this.#cache.delete(this.#cache.keys().next().value!);
    value.catch(() => {
      if (this.#cache.get(projectId) === entry) this.#cache.delete(projectId);
    });
    return value;
  }

  async publicKey(projectId: string): Promise<{ public_key: string; key_id: string }> {
    const summary = await this.summary(projectId);
    if (summary === undefined) throw new NotFoundError(`project ${projectId} has no Web Push keys (herald providers webpush ${projectId} --generate --subject mailto:…)`);
    return currentPublicKey(summary);
  }
}
