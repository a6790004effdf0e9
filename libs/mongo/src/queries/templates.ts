import type { Collection, Db } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { storeAdapter } from '../store/store-adapter.ts';
import type { PageWindow } from './devices.ts';
import { driverDb, type Store } from '../store-handle.ts';

/**
 * A template of a project: its name and how many versions it has had. The
 * id is derived from (project, name), so a name finds its template by `_id`
 * and two creations of one name race on the unique `_id`. Deleting leaves a
 * tombstone (`deleted_at`): a template made again under the name numbers
 * its versions on, so `name@3` never names two different contents.
 */
export interface TemplateHead {
  _id: string;
  project_id: string;
  name: string;
  /** The highest version number handed out. */
  latest: number;
  created_at: Date;
  updated_at: Date;
  deleted_at?: Date;
}

/** One immutable version of a template's content (as saved; libs/templates reads it). */
export interface TemplateVersion {
  /** `<template id>@<version>` */
  _id: string;
  template_id: string;
  project_id: string;
  version: number;
  content: Record<string, unknown>;
  created_at: Date;
}

const LIVE = { deleted_at: { $exists: false } } as const;

/**
 * The `templates` and `template_versions` admin collections (the API writes
 * and reads them; a send copies the version it uses into its
 * NotificationRequested, so delivery and replays never read them). Every
 * query names the project.
 */
export class TemplateQueries {
  readonly #db: Db;
  readonly #heads: Collection<TemplateHead>;
  readonly #versions: Collection<TemplateVersion>;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#db = db;
    this.#heads = db.collection<TemplateHead>(ADMIN_COLLECTIONS.templates);
    this.#versions = db.collection<TemplateVersion>(ADMIN_COLLECTIONS.templateVersions);
  }

  /**
   * Claims version 1 of a new template (or the next number of a deleted
   * one's tombstone): the head as it is now, or null when a live template
   * has the name.
   */
  async claimNew(projectId: string, id: string, name: string, now: Date): Promise<TemplateHead | null> {
    try {
      const head: TemplateHead = { _id: id, project_id: projectId, name, latest: 1, created_at: now, updated_at: now };
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

  /** Hands out the next version number of a live template: the head after, or null when there is none. */
  async claimNext(projectId: string, id: string, now: Date): Promise<TemplateHead | null> {
    return this.#heads.findOneAndUpdate({ _id: id, project_id: projectId, ...LIVE }, { $inc: { latest: 1 }, $set: { updated_at: now } }, { returnDocument: 'after' });
  }

  async insertVersion(version: TemplateVersion): Promise<void> {
    await this.#versions.insertOne(version);
  }

  async head(projectId: string, id: string): Promise<TemplateHead | null> {
    return this.#heads.findOne({ _id: id, project_id: projectId, ...LIVE });
  }

  /** The version, or the newest saved one when `version` is undefined; null when there is none. */
  async version(projectId: string, id: string, version: number | undefined): Promise<TemplateVersion | null> {
    if (version !== undefined) return this.#versions.findOne({ _id: `${id}@${version}`, project_id: projectId });
    return this.#versions.find({ template_id: id, project_id: projectId }).sort({ version: -1 }).limit(1).next();
  }

  /** A template's versions, newest first, without their content. */
  async versions(projectId: string, id: string, page: PageWindow): Promise<Array<Omit<TemplateVersion, 'content'>>> {
    return this.#versions
      .find({ template_id: id, project_id: projectId })
      .project<Omit<TemplateVersion, 'content'>>({ content: 0 })
      .sort({ version: -1 })
      .skip(page.skip)
      .limit(page.limit)
      .toArray();
  }

  async countVersions(projectId: string, id: string): Promise<number> {
    return (await storeAdapter(this.#db)).count(this.#versions, { template_id: id, project_id: projectId });
  }

  /** A page of the project's live templates, oldest first. */
  async page(projectId: string, page: PageWindow): Promise<TemplateHead[]> {
    return this.#heads.find({ project_id: projectId, ...LIVE }).sort({ created_at: 1, _id: 1 }).skip(page.skip).limit(page.limit).toArray();
  }

  async count(projectId: string, limit?: number): Promise<number> {
    return (await storeAdapter(this.#db)).count(this.#heads, { project_id: projectId, ...LIVE }, limit === undefined ? undefined : { limit });
  }

  /** Deletes a live template: its versions go, its head stays as a tombstone; false when there was none. */
  async delete(projectId: string, id: string, now: Date): Promise<boolean> {
    const result = await this.#heads.updateOne({ _id: id, project_id: projectId, ...LIVE }, { $set: { deleted_at: now, updated_at: now } });
    if (result.matchedCount === 0) return false;
    await this.#versions.deleteMany({ template_id: id, project_id: projectId });
    return true;
  }
}
