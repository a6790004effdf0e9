import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { RateLimitedError } from './retry-after.ts';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * A rate limit that is checked before a request does its work but counted
 * only for the requests that should count (after the fact): a key whose
 * budget is used up is remembered as spent until its window ends, and
 * refused up front until then (no work, no store lookup). @fastify/rate-limit
 * counts; this remembers when a count ran out.
 */
export class Budget {
  readonly #limiter: Limiter;
  readonly #keyOf: (request: FastifyRequest) => string;
  readonly #spentUntil = new LRUCache<string, number>({ max: 50_000 });

  constructor(limiter: Limiter, keyOf: (request: FastifyRequest) => string) {
    this.#limiter = limiter;
    this.#keyOf = keyOf;
  }

  /** 429 when the request's key used up its budget within its window. */
  refuseIfSpent(request: FastifyRequest, what: string): void {
    const key = this.#keyOf(request);
    const until = this.#spentUntil.get(key);
    if (until === undefined) return;
    const left = until - Date.now();
    if (left <= 0) this.#spentUntil.delete(key);
    else throw new RateLimitedError(what, Math.max(1, Math.ceil(left / 1000)));
  }

  /** Counts the request; once its key has none left, it is remembered as spent. Resolves with whether this request was over the limit. */
  async record(request: FastifyRequest): Promise<boolean> {
    const result = await this.#limiter(request);
    if (result.isAllowed) return false;
    if (result.remaining <= 0) this.#spentUntil.set(this.#keyOf(request), Date.now() + Math.max(1000, result.ttl));
    return result.isExceeded;
  }

  /** Counts the request and answers 429 when it was over the limit. */
  async spend(request: FastifyRequest, what: string): Promise<void> {
    if (await this.record(request)) this.refuseIfSpent(request, what);
  }
}
