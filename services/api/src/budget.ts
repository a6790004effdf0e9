import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { RateLimitedError } from './retry-after.ts';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * A rate limit that is checked before a request does its work but counted
 * only for the requests that should count (after the fact): a key past its
 * limit is remembered as spent until its window ends, and refused up front
 * until then. @fastify/rate-limit counts; this remembers when a count ran out.
 */
export class Budget {
  readonly #limiter: Limiter;
  readonly #keyOf: (request: FastifyRequest) => string;
  readonly #spentUntil = new LRUCache<string, number>({ max: 50_000 });

  constructor(limiter: Limiter, keyOf: (request: FastifyRequest) => string) {
    this.#limiter = limiter;
    this.#keyOf = keyOf;
  }

  /** 429 when the request's key ran out within its window. */
  refuseIfSpent(request: FastifyRequest, what: string): void {
    const until = this.#spentUntil.get(this.#keyOf(request));
    if (until === undefined) return;
    const left = until - Date.now();
    if (left <= 0) this.#spentUntil.delete(this.#keyOf(request));
    else throw new RateLimitedError(what, Math.max(1, Math.ceil(left / 1000)));
  }

  /** Counts the request; resolves with whether its key is now past the limit (then remembered as spent). */
  async record(request: FastifyRequest): Promise<boolean> {
    const result = await this.#limiter(request);
    if (result.isAllowed || !result.isExceeded) return false;
    this.#spentUntil.set(this.#keyOf(request), Date.now() + Math.max(1000, result.ttl));
    return true;
  }

  /** Counts the request and answers 429 when that used up its key's budget. */
  async spend(request: FastifyRequest, what: string): Promise<void> {
    if (!(await this.record(request))) return;
    this.refuseIfSpent(request, what);
  }
}
