import type { Collection } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { driverDb, type Store } from '../store-handle.ts';

/** The last `aps.timestamp` Herald gave one activity of a project. */
export interface LiveActivityClockDocument {
  /** `<project id>:<activity id>` */
  _id: string;
  project_id: string;
  activity_id: string;
  last_timestamp: number;
  updated_at: Date;
}

/** Concurrent senders for one activity are few; past this many lost races something is wrong, not busy. */
const MAX_ATTEMPTS = 20;

function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 11000;
}

/**
 * Hands out each activity's Live Activity timestamps, strictly increasing
 * across every API instance (docs/guides/live-activities.md): `advance`
 * (nextLiveActivityTimestamp of libs/push-payloads, the rule) works out the
 * next value from the stored last one, which is written only if the last one
 * is still what was read (compare and set), so two instances never give one
 * activity the same timestamp. `advance` must return more than its argument.
 */
export class LiveActivityClock {
  readonly #clocks: Collection<LiveActivityClockDocument>;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#clocks = db.collection<LiveActivityClockDocument>(ADMIN_COLLECTIONS.liveActivityClocks);
  }

  async next(projectId: string, activityId: string, advance: (last: number | undefined) => number, now: Date = new Date()): Promise<number> {
    const id = `${projectId}:${activityId}`;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const current = await this.#clocks.findOne({ _id: id }, { projection: { last_timestamp: 1 } });
      const next = advance(current?.last_timestamp);
      if (current === null) {
        try {
          await this.#clocks.insertOne({ _id: id, project_id: projectId, activity_id: activityId, last_timestamp: next, updated_at: now });
          return next;
        } catch (error) {
          if (isDuplicateKey(error)) continue;
          throw error;
        }
      }
      const set = await this.#clocks.updateOne({ _id: id, last_timestamp: current.last_timestamp }, { $set: { last_timestamp: next, updated_at: now } });
      if (set.modifiedCount === 1) return next;
    }
    throw new Error(`live activity ${activityId}: no timestamp after ${MAX_ATTEMPTS} lost races`);
  }

  /** The activity's clock is no longer needed once it ended and its dismissal date passed. */
  async forget(projectId: string, activityId: string): Promise<void> {
    await this.#clocks.deleteOne({ _id: `${projectId}:${activityId}` });
  }
}
