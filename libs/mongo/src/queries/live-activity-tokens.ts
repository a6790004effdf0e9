import type { Collection, Db } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { storeAdapter } from '../store/store-adapter.ts';
import { driverDb, type Store } from '../store-handle.ts';

/**
 * A Live Activity token, a child of an iOS device: its app's push-to-start
 * token (one per attributes type) or one activity's update token. Admin data
 * written by the API, like drafts and webhooks, rather than events with a read
 * model: docs/guides/live-activities.md, "How Herald keeps the tokens".
 */
export interface LiveActivityTokenDocument {
  /** Derived from (device, kind, activity or attributes type): a rotated token replaces its predecessor. */
  _id: string;
  project_id: string;
  device_id: string;
  kind: 'push_to_start' | 'update';
  token: string;
  /** update tokens only: the activity (`Activity.id`) whose updates it receives. */
  activity_id: string | null;
  attributes_type: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The `live_activity_tokens` admin collection. Every query names the project, and the device where it can. */
export class LiveActivityTokenQueries {
  readonly #db: Db;
  readonly #tokens: Collection<LiveActivityTokenDocument>;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#db = db;
    this.#tokens = db.collection<LiveActivityTokenDocument>(ADMIN_COLLECTIONS.liveActivityTokens);
  }

  /** Inserts the token or replaces the one it rotates (same _id), keeping when the slot was first filled. */
  async upsert(doc: LiveActivityTokenDocument): Promise<LiveActivityTokenDocument | null> {
    const { created_at: createdAt, _id: id, ...rest } = doc;
    return this.#tokens.findOneAndUpdate(
      { _id: id, project_id: doc.project_id, device_id: doc.device_id },
      { $set: rest, $setOnInsert: { created_at: createdAt } },
      { upsert: true, returnDocument: 'after' },
    );
  }

  async exists(projectId: string, id: string): Promise<boolean> {
    return (await this.#tokens.findOne({ _id: id, project_id: projectId }, { projection: { _id: 1 } })) !== null;
  }

  /** A device's tokens, oldest first; a device holds few (the API bounds them). */
  async ofDevice(projectId: string, deviceId: string, limit: number): Promise<LiveActivityTokenDocument[]> {
    return this.#tokens.find({ project_id: projectId, device_id: deviceId }).sort({ created_at: 1, _id: 1 }).limit(limit).toArray();
  }

  async countOfDevice(projectId: string, deviceId: string): Promise<number> {
    return (await storeAdapter(this.#db)).count(this.#tokens, { project_id: projectId, device_id: deviceId });
  }

  /** Every token of these devices (unregistered or purged: never targeted again). */
  async deleteOfDevices(projectId: string, deviceIds: readonly string[]): Promise<void> {
    if (deviceIds.length > 0) await this.#tokens.deleteMany({ project_id: projectId, device_id: { $in: [...deviceIds] } });
  }

  /** The update tokens of one activity (a sender's look, bounded: an activity runs on few devices). */
  async updateTokensOfActivity(projectId: string, activityId: string, limit: number): Promise<LiveActivityTokenDocument[]> {
    return this.#tokens.find({ project_id: projectId, activity_id: activityId, kind: 'update' }).sort({ _id: 1 }).limit(limit).toArray();
  }

  /** These devices' push-to-start tokens for one attributes type. */
  async pushToStartOfDevices(projectId: string, deviceIds: readonly string[], attributesType: string): Promise<LiveActivityTokenDocument[]> {
    if (deviceIds.length === 0) return [];
    return this.#tokens.find({ project_id: projectId, device_id: { $in: [...deviceIds] }, kind: 'push_to_start', attributes_type: attributesType }).sort({ _id: 1 }).toArray();
  }

  /** An ended activity's update tokens: never used again. */
  async deleteOfActivity(projectId: string, activityId: string): Promise<void> {
    await this.#tokens.deleteMany({ project_id: projectId, activity_id: activityId, kind: 'update' });
  }

  /** A token APNs no longer takes, unless the app replaced it meanwhile (a rotated token keeps the slot id). */
  async deleteIfToken(projectId: string, id: string, token: string): Promise<void> {
    await this.#tokens.deleteOne({ _id: id, project_id: projectId, token });
  }

  async delete(projectId: string, deviceId: string, id: string): Promise<boolean> {
    return (await this.#tokens.deleteOne({ _id: id, project_id: projectId, device_id: deviceId })).deletedCount === 1;
  }
}
