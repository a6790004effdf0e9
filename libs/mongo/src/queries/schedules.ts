import type { DeliveryBatchV2, FanoutSlot, NotificationRequestedV2 } from '@herald/events';
import type { Collection, Db } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { wrapMongoError } from '../connect-mongo.ts';
import { storeAdapter } from '../store/store-adapter.ts';
import { driverDb, type Store } from '../store-handle.ts';

/** A send waiting for its time: the whole notification (send_at), or one slot of a local-time send. Small: the request is kept once, apart. */
export interface Schedule {
  /** The fan-out id: the notification id, or `<notification id>@<slot index>`. */
  _id: string;
  notification_id: string;
  project_id: string;
  due_at: Date;
  /** `due_at` as text (dueKey): the scheduler's order. The local store pages through strings in SQL, not through dates. */
  due_key: string;
  slot?: FanoutSlot;
  state: 'pending' | 'fired' | 'cancelled';
  /** A scheduler that claimed it owns it until then (a crashed one's claim runs out). */
  lease_until?: Date;
  /** The NotificationDue record the fan-out sent it for: a repeat of that record is the same firing, any other a duplicate. */
  fired_by?: { partition: number; offset: number };
  /** A batch deferred by a frequency cap or quiet hours (`_id` = its batch id): queued as it is when due, on `topic`. */
  release?: { batch: DeliveryBatchV2['data']; topic: string; correlation_id?: string };
  created_at: Date;
}

/** The request of a scheduled send, once for all its slots. */
export interface HeldRequest {
  _id: string;
  project_id: string;
  correlation_id?: string;
  request: NotificationRequestedV2['data'];
  /** After this (the last slot's time plus DELIVERY_MAX_AGE_MS) nothing can fire it any more: it is removed. */
  expires_at: Date;
}

/** The sort key of a due time: ISO 8601 in UTC, fixed width for years 0-9999 (sends are at most 30 days ahead), so text order is time order. */
export function dueKey(at: Date): string {
  return at.toISOString();
}

/**
 * `delivery_schedules` and `delivery_requests`: what makes a scheduled send
 * durable (services/delivery's fan-out and scheduler use it). The fan-out writes them before committing the request's offset;
 * every instance's scheduler reads only ids and due times, claims a due one
 * with a lease and announces it (NotificationDue); the fan-out marks it
 * fired when it takes that record, so a repeated announcement is dropped.
 * Finished schedules and their requests are removed once nothing can fire
 * them any more.
 */
export class ScheduleStore {
  readonly #schedules: Collection<Schedule>;
  readonly #requests: Collection<HeldRequest>;
  readonly #held = new Set<(firstDue: Date) => void>();
  readonly #db: Db;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#db = db;
    this.#schedules = db.collection<Schedule>(ADMIN_COLLECTIONS.deliverySchedules);
    this.#requests = db.collection<HeldRequest>(ADMIN_COLLECTIONS.deliveryRequests);
  }

  /** Idempotent: a request redelivered after its schedules were written changes nothing. */
  async hold(request: HeldRequest, schedules: readonly Schedule[]): Promise<void> {
    await this.#guard(async () => {
      await this.#requests.updateOne({ _id: request._id }, { $setOnInsert: request }, { upsert: true });
      for (const schedule of schedules) await this.#schedules.updateOne({ _id: schedule._id }, { $setOnInsert: schedule }, { upsert: true });
    });
    const first = Math.min(...schedules.map((schedule) => schedule.due_at.getTime()));
    if (Number.isFinite(first)) for (const listener of this.#held) listener(new Date(first));
  }

  /** Deferred batches (idempotent: a step run again writes the same ids). */
  async holdReleases(schedules: readonly Schedule[]): Promise<void> {
    if (schedules.length === 0) return;
    await this.#guard(() => this.#schedules.bulkWrite(schedules.map((schedule) => ({ updateOne: { filter: { _id: schedule._id }, update: { $setOnInsert: schedule }, upsert: true } })), { ordered: false }));
    const first = Math.min(...schedules.map((schedule) => schedule.due_at.getTime()));
    for (const listener of this.#held) listener(new Date(first));
  }

  /** A deferred batch's schedule (fired or not). */
  released(id: string): Promise<Schedule | null> {
    return this.#guard(() => this.#schedules.findOne({ _id: id }));
  }

  /** Calls `listener` with the earliest due time of each hold this process makes (the scheduler wakes for it); answers the unsubscribe. */
  onHeld(listener: (firstDue: Date) => void): () => void {
    this.#held.add(listener);
    return () => this.#held.delete(listener);
  }

  /**
   * The `limit` earliest pending schedules, due or not (ids and due times
   * only, never a request body): the caller fires the due ones and sleeps
   * until the next. An equality and a sort ending with `_id`, through
   * `by_state_due_key`: the local store answers it from its index, reading
   * only the rows it returns, however many schedules are stored.
   */
  async earliest(limit: number): Promise<Array<Pick<Schedule, '_id' | 'due_at'>>> {
    return this.#guard(() => this.#schedules.find({ state: 'pending' }, { projection: { _id: 1, due_at: 1 } }).sort({ due_key: 1, _id: 1 }).limit(limit).toArray());
  }

  /** How many schedules wait (pending), and how many finished ones are still kept (fired or cancelled, not yet pruned). */
  async countByState(): Promise<{ pending: number; kept: number }> {
    const store = await storeAdapter(this.#db);
    const [pending, kept] = await Promise.all([store.count(this.#schedules, { state: 'pending' }), store.count(this.#schedules, { state: { $ne: 'pending' } })]);
    return { pending, kept };
  }

  /** Gives pending schedules stored before `due_key` existed their key (once, at start); answers how many. */
  async addMissingDueKeys(): Promise<number> {
    return this.#guard(async () => {
      const missing = await this.#schedules.find({ state: 'pending', due_key: { $exists: false } }, { projection: { _id: 1, due_at: 1 } }).toArray();
      for (const { _id, due_at } of missing) await this.#schedules.updateOne({ _id, due_key: { $exists: false } }, { $set: { due_key: dueKey(due_at) } });
      return missing.length;
    });
  }

  /** Takes a due schedule for `leaseMs` (real time); null when another scheduler holds it or it is no longer pending. */
  async claim(id: string, now: Date, leaseMs: number): Promise<Schedule | null> {
    return this.#guard(() =>
      this.#schedules.findOneAndUpdate(
        { _id: id, state: 'pending', $or: [{ lease_until: { $exists: false } }, { lease_until: { $lt: now } }] },
        { $set: { lease_until: new Date(now.getTime() + leaseMs) } },
        { returnDocument: 'after' },
      ),
    );
  }

  /**
   * Marks a schedule fired by the NotificationDue at `by`; true when it was
   * pending, or was fired by that same record (a retry). False: fired by
   * another record, cancelled, or unknown — that announcement is dropped.
   */
  async markFired(id: string, by: { partition: number; offset: number }, now: Date): Promise<boolean> {
    return this.#guard(async () => {
      const { matchedCount } = await this.#schedules.updateOne({ _id: id, state: 'pending' }, { $set: { state: 'fired', fired_by: by, lease_until: now } });
      if (matchedCount === 1) return true;
      const found = await this.#schedules.findOne({ _id: id }, { projection: { state: 1, fired_by: 1 } });
      return found?.state === 'fired' && found.fired_by?.partition === by.partition && found.fired_by.offset === by.offset;
    });
  }

  request(notificationId: string): Promise<HeldRequest | null> {
    return this.#guard(() => this.#requests.findOne({ _id: notificationId }));
  }

  /** A cancelled notification's pending slots will not fire, and its request is dropped. */
  async cancel(notificationId: string): Promise<void> {
    await this.#guard(async () => {
      // Deferred batches still fire: the sender reports their devices `cancelled`, settling each `deferred` line.
      await this.#schedules.updateMany({ notification_id: notificationId, state: 'pending', release: { $exists: false } }, { $set: { state: 'cancelled' } });
      await this.#requests.deleteOne({ _id: notificationId });
    });
  }

  /** Removes what can no longer fire: schedules finished before `before`, requests past their expiry. */
  async prune(before: Date, now: Date): Promise<number> {
    return this.#guard(async () => {
      const schedules = await this.#schedules.deleteMany({ state: { $in: ['fired', 'cancelled'] }, due_at: { $lt: before } });
      const requests = await this.#requests.deleteMany({ expires_at: { $lt: now } });
      return schedules.deletedCount + requests.deletedCount;
    });
  }

  async #guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw wrapMongoError(error);
    }
  }
}
