import type { Provider } from '@herald/events';
import { ADMIN_COLLECTIONS, type Collection, type Db } from '@herald/mongo';

type PerProvider = Record<Provider, number>;

/**
 * How far one notification's fan-out got. Written before each group of
 * batches is published, so it always describes a state a restart can
 * resume from without losing a device:
 * - every audience device with an id up to `after` is in a batch that was
 *   published (`after` absent: none yet), and `targeted` counts them;
 * - `sequence` is the next free sequence number per provider. It already
 *   covers the group being published, so a restart that re-reads that
 *   group numbers it anew instead of reusing ids that may name other
 *   devices by then (the audience moves while a campaign runs: its own
 *   invalid tokens deactivate devices, new devices register).
 */
export interface FanoutProgress {
  _id: string;
  after?: string;
  sequence: PerProvider;
  targeted: PerProvider;
  /** Set once every batch is published; a repeat only re-announces the dispatch. */
  dispatched: boolean;
  updated_at: Date;
}

export type FanoutPlan =
  | { kind: 'stream'; after: string | undefined; start: { sequence: PerProvider; targeted: PerProvider } | undefined }
  | { kind: 'announce'; targeted: PerProvider; batches: PerProvider };

const NONE: PerProvider = { apns: 0, fcm: 0 };

/**
 * What a fan-out does given what an earlier attempt recorded (pure). A
 * request too old to send is announced with what was already queued (none
 * if it never started): a push hours late is worse than none.
 */
export function planFanout(progress: Pick<FanoutProgress, 'after' | 'sequence' | 'targeted' | 'dispatched'> | null, expired: boolean): FanoutPlan {
  if (progress === null) return expired ? { kind: 'announce', targeted: NONE, batches: NONE } : { kind: 'stream', after: undefined, start: undefined };
  if (progress.dispatched || expired) return { kind: 'announce', targeted: progress.targeted, batches: progress.sequence };
  return { kind: 'stream', after: progress.after, start: { sequence: progress.sequence, targeted: progress.targeted } };
}

/** One document per notification in `fanout_progress`. */
export class FanoutProgressStore {
  readonly #progress: Collection<FanoutProgress>;

  constructor(db: Db) {
    this.#progress = db.collection<FanoutProgress>(ADMIN_COLLECTIONS.fanoutProgress);
  }

  load(notificationId: string): Promise<FanoutProgress | null> {
    return this.#progress.findOne({ _id: notificationId });
  }

  async save(notificationId: string, progress: Omit<FanoutProgress, '_id' | 'updated_at' | 'after'> & { after: string | undefined }): Promise<void> {
    const { after, ...rest } = progress;
    await this.#progress.replaceOne({ _id: notificationId }, { ...rest, ...(after === undefined ? {} : { after }), updated_at: new Date() }, { upsert: true });
  }
}
