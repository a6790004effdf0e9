import { ADMIN_COLLECTIONS, wrapMongoError, type Collection, type Db } from '@herald/mongo';

interface Cancellation {
  _id: string;
  project_id: string;
  cancelled_at: string;
}

export interface CancellationSettings {
  /** How long "not cancelled" is believed before asking the store again: a cancel takes effect within this. */
  recheckMs?: number;
  now?: () => number;
}

/**
 * Which notifications their clients cancelled, as delivery sees them: the
 * fan-out writes a mark when it reads NotificationCancelled from the log;
 * fan-out steps and senders ask before each step and each batch (never per
 * device). A cancel is final, so a yes is remembered for good; a no only for
 * `recheckMs`, which bounds how long after the mark a sender still sends.
 */
export class CancellationStore {
  readonly #marks: Collection<Cancellation>;
  readonly #cancelled = new Set<string>();
  readonly #notCancelledUntil = new Map<string, number>();
  readonly #recheckMs: number;
  readonly #now: () => number;

  constructor(db: Db, settings: CancellationSettings = {}) {
    this.#marks = db.collection<Cancellation>(ADMIN_COLLECTIONS.deliveryCancellations);
    this.#recheckMs = settings.recheckMs ?? 1_000;
    this.#now = settings.now ?? Date.now;
  }

  async cancel(notificationId: string, projectId: string, cancelledAt: string): Promise<void> {
    try {
      await this.#marks.updateOne({ _id: notificationId }, { $setOnInsert: { project_id: projectId, cancelled_at: cancelledAt } }, { upsert: true });
    } catch (error) {
      throw wrapMongoError(error);
    }
    this.#cancelled.add(notificationId);
    this.#notCancelledUntil.delete(notificationId);
  }

  async isCancelled(notificationId: string): Promise<boolean> {
    if (this.#cancelled.has(notificationId)) return true;
    const now = this.#now();
    if ((this.#notCancelledUntil.get(notificationId) ?? 0) > now) return false;
    let found: Cancellation | null;
    try {
      found = await this.#marks.findOne({ _id: notificationId }, { projection: { _id: 1 } });
    } catch (error) {
      throw wrapMongoError(error);
    }
    if (found !== null) {
      this.#cancelled.add(notificationId);
      this.#notCancelledUntil.delete(notificationId);
      return true;
    }
    // Forget old answers so the map stays as small as the campaigns in flight.
    if (this.#notCancelledUntil.size > 10_000) for (const [id, until] of this.#notCancelledUntil) if (until <= now) this.#notCancelledUntil.delete(id);
    this.#notCancelledUntil.set(notificationId, now + this.#recheckMs);
    return false;
  }
}
