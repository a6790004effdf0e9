import type { Collection, Db } from '@herald/mongo';
import { wrapMongoError } from '@herald/mongo';

/** The sender's own bookkeeping, one document per DeliveryBatch. */
export const SENDER_BATCHES_COLLECTION = 'delivery_sender_batches';

interface BatchAttempts {
  _id: string;
  /** Sends of this batch that failed (threw, or left devices retryable past the deadline). */
  failures: number;
  done: boolean;
  updated_at: Date;
}

export type BatchState = { kind: 'done' } | { kind: 'open'; failures: number };

/**
 * Per-batch completion and failed-attempt count, so a redelivered chunk
 * skips batches already reported and a batch that keeps failing is capped
 * across restarts and instances. Store outages surface as retriable errors.
 */
export class BatchAttemptStore {
  readonly #batches: Collection<BatchAttempts>;

  constructor(db: Db) {
    this.#batches = db.collection<BatchAttempts>(SENDER_BATCHES_COLLECTION);
  }

  async state(batchId: string): Promise<BatchState> {
    const found = await this.#guard(() => this.#batches.findOne({ _id: batchId }));
    if (found?.done === true) return { kind: 'done' };
    return { kind: 'open', failures: found?.failures ?? 0 };
  }

  async failed(batchId: string, now = new Date()): Promise<void> {
    await this.#guard(() => this.#batches.updateOne({ _id: batchId }, { $inc: { failures: 1 }, $set: { updated_at: now }, $setOnInsert: { done: false } }, { upsert: true }));
  }

  async done(batchId: string, now = new Date()): Promise<void> {
    await this.#guard(() => this.#batches.updateOne({ _id: batchId }, { $set: { done: true, updated_at: now }, $setOnInsert: { failures: 0 } }, { upsert: true }));
  }

  async #guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw wrapMongoError(error);
    }
  }
}
