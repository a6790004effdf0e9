import type { Collection, Db, Filter, OptionalUnlessRequiredId, WithId } from 'mongodb';
import { storeAdapter } from '../store/store-adapter.ts';
import type { PageWindow } from './devices.ts';

/**
 * The head of a versioned document of a project (a template, a saved
 * segment): its name and how many versions it has had. The id is derived
 * from (project, name), so a name finds its document by `_id` and two
 * creations of one name race on the unique `_id`. Deleting leaves a
 * tombstone (`deleted_at`): a document made again under the name numbers
 * its versions on, so `name@3` never names two different contents.
 */
export interface VersionedHead {
  _id: string;
  project_id: string;
  name: string;
  /** The highest version number handed out. */
  latest: number;
  created_at: Date;
  updated_at: Date;
  deleted_at?: Date;
}

/** What every immutable version has; `<Parent>` names its head's id (`template_id`, `segment_id`). */
export type DocumentVersion<Parent extends string> = {
  /** `<head id>@<version>` */
  _id: string;
  project_id: string;
  version: number;
  created_at: Date;
} & Record<Parent, string>;

const LIVE = { deleted_at: { $exists: false } } as const;

/**
 * Versioned documents in two admin collections: heads (one per name, the
 * version counter) and immutable versions. A new version's number is handed
 * out atomically by the head (`claimNew`, `claimNext`) before the version is
 * written, so two concurrent saves never take one number. Every query names
 * the project.
 */
export class VersionedDocuments<Parent extends string, Payload extends string, Version extends DocumentVersion<Parent> & Record<Payload, unknown>> {
  readonly #db: Db;
  readonly #heads: Collection<VersionedHead>;
  readonly #versions: Collection<Version>;
  readonly #fields: { parent: Parent; payload: Payload };

  /** `fields`: the field of a version that holds its head's id, and the one that holds its content. */
  constructor(db: Db, collections: { heads: string; versions: string }, fields: { parent: Parent; payload: Payload }) {
    this.#db = db;
    this.#heads = db.collection<VersionedHead>(collections.heads);
    this.#versions = db.collection<Version>(collections.versions);
    this.#fields = fields;
  }

  /** A head's versions (every query of them names the project too). */
  #versionsOf(projectId: string, id: string): Filter<Version> {
    return { [this.#fields.parent]: id, project_id: projectId } as Filter<Version>;
  }

  /**
   * Claims version 1 of a new document (or the next number of a deleted
   * one's tombstone): the head as it is now, or null when a live document
   * has the name.
   */
  async claimNew(projectId: string, id: string, name: string, now: Date): Promise<VersionedHead | null> {
    try {
      const head: VersionedHead = { _id: id, project_id: projectId, name, latest: 1, created_at: now, updated_at: now };
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

  /** Hands out the next version number of a live document: the head after, or null when there is none. */
  async claimNext(projectId: string, id: string, now: Date): Promise<VersionedHead | null> {
    return this.#heads.findOneAndUpdate({ _id: id, project_id: projectId, ...LIVE }, { $inc: { latest: 1 }, $set: { updated_at: now } }, { returnDocument: 'after' });
  }

  async insertVersion(version: Version): Promise<void> {
    await this.#versions.insertOne(version as OptionalUnlessRequiredId<Version>);
  }

  async head(projectId: string, id: string): Promise<VersionedHead | null> {
    return this.#heads.findOne({ _id: id, project_id: projectId, ...LIVE });
  }

  /** The version, or the newest saved one when `version` is undefined; null when there is none. */
  async version(projectId: string, id: string, version: number | undefined): Promise<WithId<Version> | null> {
    if (version !== undefined) return this.#versions.findOne({ _id: `${id}@${version}`, project_id: projectId } as Filter<Version>);
    return this.#versions.find(this.#versionsOf(projectId, id)).sort({ version: -1 }).limit(1).next();
  }

  /** A document's versions, newest first, without their content. */
  async versions(projectId: string, id: string, page: PageWindow): Promise<Array<Omit<Version, Payload>>> {
    return this.#versions
      .find(this.#versionsOf(projectId, id))
      .project<Omit<Version, Payload>>({ [this.#fields.payload]: 0 })
      .sort({ version: -1 })
      .skip(page.skip)
      .limit(page.limit)
      .toArray();
  }

  async countVersions(projectId: string, id: string): Promise<number> {
    return (await storeAdapter(this.#db)).count(this.#versions, this.#versionsOf(projectId, id));
  }

  /** A page of the project's live documents, oldest first. */
  async page(projectId: string, page: PageWindow): Promise<VersionedHead[]> {
    return this.#heads.find({ project_id: projectId, ...LIVE }).sort({ created_at: 1, _id: 1 }).skip(page.skip).limit(page.limit).toArray();
  }

  async count(projectId: string, limit?: number): Promise<number> {
    return (await storeAdapter(this.#db)).count(this.#heads, { project_id: projectId, ...LIVE }, limit === undefined ? undefined : { limit });
  }

  /**
   * Deletes a live document: its versions go, its head stays as a tombstone
   * (so the name numbers on); false when there was none. Sends keep the
   * versions they use in their own events.
   */
  async delete(projectId: string, id: string, now: Date): Promise<boolean> {
    const result = await this.#heads.updateOne({ _id: id, project_id: projectId, ...LIVE }, { $set: { deleted_at: now, updated_at: now } });
    if (result.matchedCount === 0) return false;
    await this.#versions.deleteMany(this.#versionsOf(projectId, id));
    return true;
  }
}
