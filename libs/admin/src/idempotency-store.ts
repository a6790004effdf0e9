import { createHash } from 'node:crypto';
import type { Collection, Db } from '@herald/mongo';
import { ADMIN_COLLECTIONS } from '@herald/mongo';
import { AppError } from '@herald/errors';

interface IdempotencyRecord {
  _id: string;
  state: 'pending' | 'done';
  /** Fingerprint of the request, so a key reused for another request is refused. */
  request_hash: string;
  /** What the first request answered; returned to repeats. */
  result?: unknown;
  created_at: Date;
}

export type Claim<T> = { kind: 'claimed'; id: string } | { kind: 'done'; result: T } | { kind: 'pending' };

export function requestHash(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

/**
 * "Do this once": a request claims its key by inserting it (the unique `_id`
 * makes concurrent claims race safely), does its work, then records the
 * result. A repeat finds the result; a failed attempt releases its claim so
 * a retry can go ahead. Keys older than `windowMs` are free again (checked on
 * read, since FerretDB has no TTL indexes).
 */
export class IdempotencyStore {
  readonly #keys: Collection<IdempotencyRecord>;

  constructor(db: Db) {
    this.#keys = db.collection<IdempotencyRecord>(ADMIN_COLLECTIONS.idempotencyKeys);
  }

  async claim<T>(id: string, hash: string, windowMs: number, now = new Date()): Promise<Claim<T>> {
    try {
      await this.#keys.insertOne({ _id: id, state: 'pending', request_hash: hash, created_at: now });
      return { kind: 'claimed', id };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 11000) throw error;
    }
    const existing = await this.#keys.findOne({ _id: id });
    if (existing === null) return this.claim(id, hash, windowMs, now);
    if (now.getTime() - existing.created_at.getTime() > windowMs) {
      // Expired: take it over, unless another request just did.
      const taken = await this.#keys.updateOne(
        { _id: id, created_at: existing.created_at },
        { $set: { state: 'pending', request_hash: hash, created_at: now }, $unset: { result: '' } },
      );
      return taken.modifiedCount === 1 ? { kind: 'claimed', id } : { kind: 'pending' };
    }
    if (existing.request_hash !== hash) {
      throw new AppError('CONFLICT', 'Idempotency-Key was already used for a different request');
    }
    return existing.state === 'done' ? { kind: 'done', result: existing.result as T } : { kind: 'pending' };
  }

  async complete(id: string, result: unknown): Promise<void> {
    await this.#keys.updateOne({ _id: id }, { $set: { state: 'done', result } });
  }

  async release(id: string): Promise<void> {
    await this.#keys.deleteOne({ _id: id, state: 'pending' });
  }
}
