import type { Collection, Filter, UpdateFilter } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { driverDb, type Store } from '../store-handle.ts';

/** What every stored project has; the rest of its fields are libs/admin's (admin-store.ts). */
export interface ProjectRecordBase {
  _id: string;
  created_at: Date;
}

/** What every stored API key has (libs/admin admin-store.ts: the key's hash, never the key). */
export interface ApiKeyRecordBase {
  _id: string;
  project_id: string;
  hash: string;
  created_at: Date;
  revoked_at?: Date;
}

/**
 * The `projects` and `api_keys` admin collections (their indexes:
 * collections.ts ADMIN_INDEXES). `Project` is the stored document's type,
 * `hidden` the fields no getter returns unless asked for by name (secrets).
 */
export class ProjectQueries<Project extends ProjectRecordBase, Key extends ApiKeyRecordBase = ApiKeyRecordBase> {
  readonly #projects: Collection<Project>;
  readonly #keys: Collection<Key>;
  readonly #hidden: Record<string, 0>;

  constructor(store: Store, hidden: ReadonlyArray<keyof Project & string> = []) {
    const db = driverDb(store);
    this.#projects = db.collection<Project>(ADMIN_COLLECTIONS.projects);
    this.#keys = db.collection<Key>(ADMIN_COLLECTIONS.apiKeys);
    this.#hidden = Object.fromEntries(hidden.map((field) => [field, 0 as const]));
  }

  async insertProject(project: Project): Promise<void> {
    await this.#projects.insertOne(project as never);
  }

  /** The project without its hidden fields, or null. */
  async project(projectId: string): Promise<Project | null> {
    return (await this.#projects.findOne(byId<Project>(projectId), { projection: this.#hidden })) as Project | null;
  }

  /** Only these fields of the project (hidden ones included when named), or null when there is no such project. */
  async projectFields<Field extends keyof Project & string>(projectId: string, fields: readonly Field[]): Promise<(Pick<Project, Field> & ProjectRecordBase) | null> {
    const projection = Object.fromEntries(fields.map((field) => [field, 1 as const]));
    return (await this.#projects.findOne(byId<Project>(projectId), { projection })) as (Pick<Project, Field> & ProjectRecordBase) | null;
  }

  /** Every project without its hidden fields, oldest first. */
  async projects(): Promise<Project[]> {
    return (await this.#projects.find({}, { projection: this.#hidden }).sort({ created_at: 1 }).toArray()) as Project[];
  }

  /**
   * Sets a field of the project, or removes it when `value` is undefined;
   * false when there is no such project. With `onlyIfUnset`, only a project
   * that does not have the field yet is changed (false otherwise too).
   */
  async setField<Field extends keyof Project & string>(projectId: string, field: Field, value: Project[Field] | undefined, options: { onlyIfUnset?: boolean } = {}): Promise<boolean> {
    const filter = (options.onlyIfUnset === true ? { _id: projectId, [field]: { $exists: false } } : { _id: projectId }) as Filter<Project>;
    const update = (value === undefined ? { $unset: { [field]: '' } } : { $set: { [field]: value } }) as UpdateFilter<Project>;
    return (await this.#projects.updateOne(filter, update)).matchedCount === 1;
  }

  async insertKey(key: Key): Promise<void> {
    await this.#keys.insertOne(key as never);
  }

  /** The key with this id (its hash included), or null. */
  async key(keyId: string): Promise<Key | null> {
    return (await this.#keys.findOne(byId<Key>(keyId))) as Key | null;
  }

  /** Marks the key revoked at `now`; false when there is no such key. */
  async revokeKey(keyId: string, now: Date): Promise<boolean> {
    return (await this.#keys.updateOne(byId<Key>(keyId), { $set: { revoked_at: now } } as UpdateFilter<Key>)).matchedCount === 1;
  }

  /** The project's keys without their hashes, oldest first. */
  async keys(projectId: string): Promise<Array<Omit<Key, 'hash'>>> {
    return (await this.#keys.find({ project_id: projectId } as Filter<Key>, { projection: { hash: 0 } }).sort({ created_at: 1 }).toArray()) as Array<Omit<Key, 'hash'>>;
  }
}

function byId<T>(id: string): Filter<T> {
  return { _id: id } as Filter<T>;
}
