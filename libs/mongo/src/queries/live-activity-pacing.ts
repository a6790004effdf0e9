import type { Collection } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { driverDb, type Store } from '../store-handle.ts';
import type { LiveActivitySendDocument } from './live-activity-sends.ts';
import type { LiveActivityTokenDocument } from './live-activity-tokens.ts';

/** A token whose removal waits for its activity's dismissal date. */
type ScheduledToken = LiveActivityTokenDocument & { remove_at?: Date };

/**
 * What the delivery apns role's Live Activity sender asks beyond the tokens
 * and the report (docs/guides/live-activities.md): the per-activity rate
 * (the activity's newer update requests and its last push, read from
 * `live_activity_sends`), deferred removal of an ended activity's update
 * tokens (`remove_at` on the tokens themselves: the schedule lives in the
 * store, so a restart keeps it), and the push-to-start tokens of one
 * attributes type in pages (a start to topics or filters).
 */
export class LiveActivityPacingQueries {
  readonly #sends: Collection<LiveActivitySendDocument>;
  readonly #tokens: Collection<ScheduledToken>;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#sends = db.collection<LiveActivitySendDocument>(ADMIN_COLLECTIONS.liveActivitySends);
    this.#tokens = db.collection<ScheduledToken>(ADMIN_COLLECTIONS.liveActivityTokens);
  }

  /** The activity's next update request after `timestamp` (timestamps rise in the order the API accepted them). */
  async newerUpdate(projectId: string, activityId: string, timestamp: number): Promise<{ id: string; created_at: Date } | null> {
    const [next] = await this.#sends
      .find({ project_id: projectId, activity_id: activityId, event: 'update', timestamp: { $gt: timestamp } }, { projection: { _id: 1, created_at: 1 } })
      .sort({ timestamp: 1 })
      .limit(1)
      .toArray();
    return next === undefined ? null : { id: next._id, created_at: next.created_at };
  }

  /**
   * When the activity's newest sent push was sent, or null. Newest by
   * timestamp, so the index (project, activity, timestamp) serves it from
   * its end: an activity updated for hours holds thousands of pushes.
   */
  async lastSentAt(projectId: string, activityId: string): Promise<Date | null> {
    const [last] = await this.#sends
      .find({ project_id: projectId, activity_id: activityId, status: 'sent' }, { projection: { reported_at: 1 } })
      .sort({ timestamp: -1 })
      .limit(1)
      .toArray();
    return last?.reported_at ?? null;
  }

  /** Idempotent: a redelivered report writes the same again. */
  async reportCoalesced(projectId: string, id: string, into: string, tokens: number, at: Date): Promise<void> {
    await this.#sends.updateOne({ _id: id, project_id: projectId }, { $set: { status: 'coalesced', outcomes: [], coalesced_into: into, coalesced_tokens: tokens, reported_at: at } });
  }

  /** The activity's update tokens go at `at` (an end's future dismissal date); a later end's date replaces an earlier one. */
  async removeUpdateTokensAt(projectId: string, activityId: string, at: Date): Promise<void> {
    await this.#tokens.updateMany({ project_id: projectId, activity_id: activityId, kind: 'update' }, { $set: { remove_at: at } });
  }

  /** Removes update tokens whose dismissal date passed, at most `limit` at once; answers how many went. */
  async removeDueUpdateTokens(now: Date, limit: number): Promise<number> {
    const due = await this.#tokens.find({ remove_at: { $lte: now } }, { projection: { _id: 1 } }).limit(limit).toArray();
    if (due.length === 0) return 0;
    return (await this.#tokens.deleteMany({ _id: { $in: due.map((token) => token._id) }, remove_at: { $lte: now } })).deletedCount;
  }

  /** One page of the project's push-to-start tokens for `attributesType`, in id order after `afterId`. */
  async pushToStartPage(projectId: string, attributesType: string, afterId: string | undefined, limit: number): Promise<LiveActivityTokenDocument[]> {
    const after = afterId === undefined ? {} : { _id: { $gt: afterId } };
    return this.#tokens.find({ project_id: projectId, kind: 'push_to_start', attributes_type: attributesType, ...after }).sort({ _id: 1 }).limit(limit).toArray();
  }
}
