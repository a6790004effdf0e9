import type { Provider } from '@herald/events';
import { ADMIN_COLLECTIONS, wrapMongoError, type Collection, type Db } from '@herald/mongo';
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
 *   number, `planned_by` its event id) never re-reads the audience: it
 *   republishes `inflight` and the continuation, so the
 *   same ids carry the same devices (tokens looked up by device id) and a
 *   sender skips what it already sent. The audience moving in between
 *   (devices deactivated by the campaign's own invalid tokens, new
 *   registrations) changes nothing that was planned.
 * - A work item whose step is behind the record (`step` greater) is a
 *   no-op: the next step was planned, which happens only after this one's
 *   batches were acknowledged. So is another record for the recorded step
 *   (the continuation a replay published again): the step is in hand.
 * - A step is planned only over the state it was planned from (the save is
 *   conditional on the recorded `step`), so two instances that both think
 *   they own a partition (a rebalance) cannot record two plans for a step.
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
    return this.#progress.findOne({ _id: notificationId }).catch(rethrow);
  }

  /** Records the state (unconditionally: the dispatch). */
  async save(notificationId: string, state: FanoutState & { planned_by?: string | undefined }, inflight: RecordedBatch[], dispatched: boolean): Promise<void> {
    await this.#progress.replaceOne({ _id: notificationId }, documentOf(state, inflight, dispatched), { upsert: true }).catch(rethrow);
  }

  /**
   * Records a planned step if the record still holds the state it was
   * planned from (`fromStep`; -1: no record yet). False: another work item
   * recorded a plan first, so this one must publish nothing.
   */
  async savePlan(notificationId: string, fromStep: number, state: FanoutState, inflight: RecordedBatch[], plannedBy: string): Promise<boolean> {
    const document = documentOf({ ...state, planned_by: plannedBy }, inflight, false);
    if (fromStep < 0) {
      try {
        await this.#progress.insertOne({ _id: notificationId, ...document });
        return true;
      } catch (error) {
        if ((error as { code?: unknown }).code === DUPLICATE_KEY) return false;
        throw wrapMongoError(error);
      }
    }
    const { matchedCount } = await this.#progress.replaceOne({ _id: notificationId, step: fromStep, dispatched: false }, document).catch(rethrow);
    return matchedCount === 1;
  }
}

const DUPLICATE_KEY = 11000;

/** A store that is down is an infrastructure error the consumer retries, never the record's fault. */
function rethrow(error: unknown): never {
  throw wrapMongoError(error);
}

function documentOf(state: FanoutState & { planned_by?: string | undefined }, inflight: RecordedBatch[], dispatched: boolean): Omit<FanoutProgress, '_id'> {
  const { after, step, sequence, targeted, exhausted, planned_by } = state;
  return { step, sequence, targeted, exhausted, dispatched, inflight, updated_at: new Date(), ...(after === undefined ? {} : { after }), ...(planned_by === undefined ? {} : { planned_by }) };
}

