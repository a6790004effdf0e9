import type { NotificationRequestedV1 } from '@herald/events';
import { ADMIN_COLLECTIONS, wrapMongoError, type Collection, type Db } from '@herald/mongo';
import type { LocalSlot } from './slots.ts';

/** A send waiting for its time: the whole notification (send_at), or one slot of a local-time send. */
export interface Schedule {
  /** The notification id, or `<notification id>@<slot index>`. */
  _id: string;
  notification_id: string;
  project_id: string;
  correlation_id?: string;
  due_at: Date;
  slot?: LocalSlot;
  request: NotificationRequestedV1['data'];
  state: 'pending' | 'fired' | 'cancelled';
  /** A scheduler that claimed it owns it until then (a crashed one's claim runs out). */
  lease_until?: Date;
  created_at: Date;
}

/**
 * `delivery_schedules`: what makes a scheduled send durable. Written by the
 * fan-out before it commits the request's offset; read by every delivery
 * instance's scheduler, which claims a due schedule with a lease, fires it
 * and marks it, so several instances and restarts fire each schedule once
 * (a scheduler that dies between firing and marking is covered by the
 * fan-out, which plans a step once).
 */
export class ScheduleStore {
  readonly #schedules: Collection<Schedule>;

  constructor(db: Db) {
    this.#schedules = db.collection<Schedule>(ADMIN_COLLECTIONS.deliverySchedules);
  }

  /** Idempotent: a request redelivered after its schedules were written changes nothing. */
  async save(schedules: readonly Schedule[]): Promise<void> {
    await this.#guard(async () => {
      for (const schedule of schedules) await this.#schedules.updateOne({ _id: schedule._id }, { $setOnInsert: schedule }, { upsert: true });
    });
  }

  /** Pending schedules due by `now` (the movable clock), earliest first. */
  async due(now: Date, limit: number): Promise<Schedule[]> {
    return this.#guard(() => this.#schedules.find({ state: 'pending', due_at: { $lte: now } }).sort({ due_at: 1 }).limit(limit).toArray());
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

  async mark(id: string, state: 'fired' | 'cancelled'): Promise<void> {
    await this.#guard(() => this.#schedules.updateOne({ _id: id }, { $set: { state } }));
  }

  async #guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw wrapMongoError(error);
    }
  }
}
