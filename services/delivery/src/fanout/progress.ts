import type { Provider } from '@herald/events';
import { ADMIN_COLLECTIONS, type Collection, type Db } from '@herald/mongo';
import type { PlannedBatch } from './batcher.ts';
import type { FanoutState, RecordedProgress } from './step.ts';

/** A planned batch as recorded: its devices by id only (a token never changes for a device id, and tokens can be 4 KB). */
export interface RecordedBatch {
  provider: Provider;
  sequence: number;
  device_ids: string[];
}

/**
 * How far one notification's fan-out got: one document per notification
 * in `fanout_progress`, written before each step's batches are published.
 *
 * Invariant (what makes a retry harmless): every batch id
 * (notification, provider, sequence) names one set of devices, forever.
 * - A step is planned from the recorded state (read the page after
 *   `after`, cut it from `sequence`), and the document that records the
 *   step's end state *and its batches* (`inflight`, device ids per batch)
 *   is saved before any of them is published.
 * - A retried or redelivered work item for that step (`step` equal to its
 *   number) never re-reads the audience: it republishes `inflight`, so the
 *   same ids carry the same devices (tokens looked up by device id) and a
 *   sender skips what it already sent. The audience moving in between
 *   (devices deactivated by the campaign's own invalid tokens, new
 *   registrations) changes nothing that was planned.
 * - A work item whose step is behind the record (`step` greater) is a
 *   no-op: the next step was planned, which happens only after this one's
 *   batches were acknowledged.
 * - Devices up to `after` are planned exactly once; `targeted` counts them,
 *   so the counts never include a device twice.
 * A crash costs at most the re-publication of one step's batches under
 * their own ids.
 */
export interface FanoutProgress extends RecordedProgress {
  _id: string;
  after?: string;
  /** The batches of step `step`, as planned. */
  inflight: RecordedBatch[];
  updated_at: Date;
}

export function recordBatches(batches: readonly PlannedBatch[]): RecordedBatch[] {
  return batches.map((batch) => ({ provider: batch.provider, sequence: batch.sequence, device_ids: batch.devices.map((device) => device.device_id) }));
}

export class FanoutProgressStore {
  readonly #progress: Collection<FanoutProgress>;

  constructor(db: Db) {
    this.#progress = db.collection<FanoutProgress>(ADMIN_COLLECTIONS.fanoutProgress);
  }

  load(notificationId: string): Promise<FanoutProgress | null> {
    return this.#progress.findOne({ _id: notificationId });
  }

  async save(notificationId: string, state: FanoutState, inflight: RecordedBatch[], dispatched: boolean): Promise<void> {
    const { after, step, sequence, targeted, exhausted } = state;
    const document: Omit<FanoutProgress, '_id'> = { step, sequence, targeted, exhausted, dispatched, inflight, updated_at: new Date(), ...(after === undefined ? {} : { after }) };
    await this.#progress.replaceOne({ _id: notificationId }, document, { upsert: true });
  }
}

