import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { parseApiKey } from '@herald/admin';

export interface AuthenticatedKey {
  projectId: string;
  /** The key's id (its public part): what the per-key rate limit counts. */
  keyId: string;
}

/**
 * Bearer keys as the store knows them, remembered for `ttlMs` (by a hash:
 * the cache never holds a usable key), so a client's requests do not each
 * read the store. A revoked key stops working within `ttlMs`; open event
 * streams ask again at that pace (docs/event-stream.md).
 */
export class ApiKeyCache {
  readonly #lookup: (apiKey: string) => Promise<string | undefined>;
  readonly #cache: LRUCache<string, { projectId: string | null }>;

  constructor(options: { lookup: (apiKey: string) => Promise<string | undefined>; ttlMs: number; max?: number }) {
    this.#lookup = options.lookup;
    this.#cache = new LRUCache({ max: options.max ?? 10_000, ttl: Math.max(1, options.ttlMs), ttlAutopurge: false });
  }

  get ttlMs(): number {
    return this.#cache.ttl;
  }

  /** The project and key id of a live key; undefined for a malformed, unknown or revoked one. */
  async authenticate(apiKey: string): Promise<AuthenticatedKey | undefined> {
    const parsed = parseApiKey(apiKey);
    if (parsed === undefined) return undefined;
    const hash = createHash('sha256').update(apiKey).digest('base64url');
    let entry = this.#cache.get(hash);
    if (entry === undefined) {
      entry = { projectId: (await this.#lookup(apiKey)) ?? null };
      this.#cache.set(hash, entry);
    }
    return entry.projectId === null ? undefined : { projectId: entry.projectId, keyId: parsed.keyId };
  }
}
