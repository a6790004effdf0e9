import { createHash } from 'node:crypto';
import { IdempotencyKeys, type Store } from '@herald/mongo';
import { AppError } from '@herald/errors';

interface IdempotencyRecord {
  _id: string;
  state: 'pending' | 'done';
  /** Fingerprint of the request, so a key reused for another request is refused. */
  request_hash: string;
  /** What the first request answered; returned to repeats. */
  result?: unknown;
  created_at: Date;
  /** When the key is free again; the TTL index deletes the record then. Absent for keys that never expire. */
  expires_at?: Date;
}

export type Claim<T> = { kind: 'claimed'; id: string } | { kind: 'done'; result: T } | { kind: 'pending' };

/**
 * How long a claim may stay pending: a request that claimed a key and then
 * died (a crash, a lost connection to the store) leaves it pending; after
 * this a retry takes it over. Well above the API's request deadline.
 */
export const PENDING_LEASE_MS = 45_000;

export function requestHash(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

/** Whether a stored claim may be taken over by a new request at `now`. */
export function isReclaimable(record: Pick<IdempotencyRecord, 'state' | 'created_at'>, windowMs: number, now: Date, leaseMs = PENDING_LEASE_MS): boolean {
  const age = now.getTime() - record.created_at.getTime();
  return age > windowMs || (record.state === 'pending' && age > leaseMs);
}

/**
 * "Do this once": a request claims its key by inserting it (the unique `_id`
 * makes concurrent claims race safely), does its work, then records the
 * result. A repeat finds the result; a failed attempt releases its claim so
 * a retry can go ahead, and a claim its request never released (the process
 * died) is free again after PENDING_LEASE_MS. Keys older than `windowMs` are
 * free again: a TTL index on `expires_at` deletes them where the store has TTL
 * indexes (MongoDB), and a claim takes an expired record over in any case
 * (FerretDB 1.x refuses TTL indexes).
 */
export class IdempotencyStore {
  readonly #keys: IdempotencyKeys<IdempotencyRecord>;
  readonly #leaseMs: number;

  constructor(db: Store, options: { leaseMs?: number } = {}) {
    this.#keys = new IdempotencyKeys<IdempotencyRecord>(db);
    this.#leaseMs = options.leaseMs ?? PENDING_LEASE_MS;
  }

  /**
   * The TTL index that deletes expired keys (idempotent; call at start-up).
   * FerretDB 1.x refuses TTL indexes ("not implemented yet"): there expired
   * keys stay until a claim takes them over. Resolves with which of the two holds.
   */
  async ensureIndexes(): Promise<'ttl-index' | 'reclaim-on-use'> {
    return (await this.#keys.ensureTtlIndex()) ? 'ttl-index' : 'reclaim-on-use';
  }

  async claim<T>(id: string, hash: string, windowMs: number, now = new Date()): Promise<Claim<T>> {
    const expiresAt = Number.isFinite(windowMs) ? { expires_at: new Date(now.getTime() + windowMs) } : {};
    if (await this.#keys.insert({ _id: id, state: 'pending', request_hash: hash, created_at: now, ...expiresAt })) return { kind: 'claimed', id };
    const existing = await this.#keys.find(id);
    if (existing === null) return this.claim(id, hash, windowMs, now);
    if (isReclaimable(existing, windowMs, now, this.#leaseMs)) {
      // Expired, or abandoned while pending: take it over, unless another request just did.
      const taken = await this.#keys.takeOver(id, existing.created_at, { state: 'pending', request_hash: hash, created_at: now, ...expiresAt }, ['result']);
      return taken ? { kind: 'claimed', id } : { kind: 'pending' };
    }
    if (existing.request_hash !== hash) {
      throw new AppError('CONFLICT', 'Idempotency-Key was already used for a different request');
    }
    return existing.state === 'done' ? { kind: 'done', result: existing.result as T } : { kind: 'pending' };
  }

  async complete(id: string, result: unknown): Promise<void> {
    await this.#keys.set(id, { state: 'done', result });
  }

  async release(id: string): Promise<void> {
    await this.#keys.deletePending(id);
  }
}
