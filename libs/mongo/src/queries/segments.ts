import type { Collection, Db } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { storeAdapter } from '../store/store-adapter.ts';
import type { PageWindow } from './devices.ts';
import { driverDb, type Store } from '../store-handle.ts';

/**
 * A saved segment of a project: its name and how many versions it has had.
 * The id is derived from (project, name) (`segmentIdFor`), so a name finds
 * its segment by `_id` and two creations of one name race on the unique
 * `_id`. Deleting leaves a tombstone (`deleted_at`): a segment made again
 * under the name numbers its versions on, so `name` version 3 never means
 * two different filters.
 */
export interface SegmentHead {
  _id: string;
  project_id: string;
  name: string;
  /** The highest version number handed out. */
  latest: number;
  created_at: Date;
  updated_at: Date;
  deleted_at?: Date;
}

/** One immutable version of a segment's filter (a target expression, docs/guides/targets.md). */
export interface SegmentVersion {
  /** `<segment id>@<version>` */
  _id: string;
  segment_id: string;
  project_id: string;
  version: number;
  filter: unknown;
  created_at: Date;
}

const LIVE = { deleted_at: { $exists: false } } as const;

/**
 * The `segments` and `segment_versions` admin collections: the API writes
 * and reads them; a send pins the versions it uses in its
 * NotificationRequested, so delivery and replays never read them. Every
 * query names the project.
 */
export class SegmentQueries {
  readonly #db: Db;
  readonly #heads: Collection<SegmentHead>;
  readonly #versions: Collection<SegmentVersion>;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#db = db;
    this.#heads = db.collection<SegmentHead>(ADMIN_COLLECTIONS.segments);
    this.#versions = db.collection<SegmentVersion>(ADMIN_COLLECTIONS.segmentVersions);
  }

  /** Claims version 1 of a new segment (or the next number of a deleted one's tombstone); null when a live segment has the name. */
  async claimNew(projectId: string, id: string, name: string, now: Date): Promise<SegmentHead | null> {
    try {
      const head: SegmentHead = { _id: id, project_id: projectId, name, latest: 1, created_at: now, updated_at: now };
      await this.#heads.insertOne(head);
      return head;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 11000) throw error;
    }
    return this.#heads.findOneAndUpdate(
      { _id: id, project_id: projectId, deleted_at: { $exists: true } },
      { $unset: { deleted_at: '' }, $inc: { latest: 1 }, $set: { created_at: now, updated_at: now } },
      { returnDocument: 'after' },
    );
  }

  /** Hands out the next version number of a live segment: the head after, or null when there is none. */
  async claimNext(projectId: string, id: string, now: Date): Promise<SegmentHead | null> {
    return this.#heads.findOneAndUpdate({ _id: id, project_id: projectId, ...LIVE }, { $inc: { latest: 1 }, $set: { updated_at: now } }, { returnDocument: 'after' });
  }

  async insertVersion(version: SegmentVersion): Promise<void> {
    await this.#versions.insertOne(version);
  }

  async head(projectId: string, id: string): Promise<SegmentHead | null> {
    return this.#heads.findOne({ _id: id, project_id: projectId, ...LIVE });
  }

  /** The version, or the newest saved one when `version` is undefined; null when there is none. */
  async version(projectId: string, id: string, version: number | undefined): Promise<SegmentVersion | null> {
    if (version !== undefined) return this.#versions.findOne({ _id: `${id}@${version}`, project_id: projectId });
    return this.#versions.find({ segment_id: id, project_id: projectId }).sort({ version: -1 }).limit(1).next();
  }

  /** A page of the project's live segments, oldest first. */
  async page(projectId: string, page: PageWindow): Promise<SegmentHead[]> {
    return this.#heads.find({ project_id: projectId, ...LIVE }).sort({ created_at: 1, _id: 1 }).skip(page.skip).limit(page.limit).toArray();
  }

  async count(projectId: string, limit?: number): Promise<number> {
    return (await storeAdapter(this.#db)).count(this.#heads, { project_id: projectId, ...LIVE }, limit === undefined ? undefined : { limit });
  }

  /** Deletes a live segment: its head stays as a tombstone, its versions stay readable by sends' history only through their events; false when there was none. */
  async delete(projectId: string, id: string, now: Date): Promise<boolean> {
    const result = await this.#heads.updateOne({ _id: id, project_id: projectId, ...LIVE }, { $set: { deleted_at: now, updated_at: now } });
    if (result.matchedCount === 0) return false;
    await this.#versions.deleteMany({ segment_id: id, project_id: projectId });
    return true;
  }
}
