import type { Collection, Db, Document } from 'mongodb';
import type { ReadModelName } from '@herald/read-models';
import { ADMIN_COLLECTIONS } from './collections.ts';
import { storeAdapter, type StoreAdapter } from './store/store-adapter.ts';
import { driverDb, type Store } from './store-handle.ts';

/** One build of a read model: its collection and the consumer group that fills it. */
export interface ReadModelVersion {
  version: number;
  collection: string;
  group: string;
}

interface ReadModelPointer {
  _id: ReadModelName;
  active: ReadModelVersion;
  /** Versions readers used before, kept until an operator drops them. */
  retired: ReadModelVersion[];
  switched_at: Date;
}

export function readModelVersion(model: ReadModelName, version: number): ReadModelVersion {
  return { version, collection: `${model}_v${version}`, group: `herald.projector.${model}.v${version}` };
}

/**
 * Where a read model version keeps its counters (libs/projections counts.ts):
 * beside its documents, written by the same consumer group, so a rebuild
 * rebuilds them and a switch moves readers to both at once.
 */
export function countsCollectionName(collection: string): string {
  return `${collection}_counts`;
}

/**
 * Read models are disposable: each is built into a versioned collection by a
 * consumer group of the same version, and one pointer document per model
 * says which version readers use. Switching is a single-document update, so
 * readers move from one complete version to the next atomically.
 */
export class ReadModelRegistry {
  readonly #db: Db;
  readonly #cacheMs: number;
  readonly #cache = new Map<ReadModelName, { at: number; version: ReadModelVersion }>();

  /** `cacheMs`: how stale a reader's view of the pointer may be (the API re-reads at most this often). */
  constructor(store: Store, options: { cacheMs?: number } = {}) {
    const db = driverDb(store);
    this.#db = db;
    this.#cacheMs = options.cacheMs ?? 1000;
  }

  get #pointers(): Collection<ReadModelPointer> {
    return this.#db.collection<ReadModelPointer>(ADMIN_COLLECTIONS.readModelVersions);
  }

  /** The version readers use now (cached up to `cacheMs`); version 1 for a model never built before. */
  async active(model: ReadModelName): Promise<ReadModelVersion> {
    const cached = this.#cache.get(model);
    if (cached !== undefined && Date.now() - cached.at < this.#cacheMs) return cached.version;
    const { active } = await this.#load(model);
    this.#cache.set(model, { at: Date.now(), version: active });
    return active;
  }

  async #load(model: ReadModelName): Promise<ReadModelPointer> {
    const found = await this.#pointers.findOne({ _id: model });
    if (found !== null) return found;
    const initial: ReadModelPointer = { _id: model, active: readModelVersion(model, 1), retired: [], switched_at: new Date() };
    try {
      await this.#pointers.insertOne(initial);
    } catch {
      // Another process created it first; read theirs.
    }
    return (await this.#pointers.findOne({ _id: model })) ?? initial;
  }

  /** The adapter of the store the read models live in (detected once per connection). */
  store(): Promise<StoreAdapter> {
    return storeAdapter(this.#db);
  }

  async collection<T extends Document>(model: ReadModelName): Promise<Collection<T>> {
    return this.#db.collection<T>((await this.active(model)).collection);
  }

  /** The counters of the version readers use now (see countsCollectionName). */
  async countsCollection<T extends Document>(model: ReadModelName): Promise<Collection<T>> {
    return this.#db.collection<T>(countsCollectionName((await this.active(model)).collection));
  }

  /** Every version still stored: the active one and the retired ones. */
  async versions(model: ReadModelName): Promise<{ active: ReadModelVersion; retired: ReadModelVersion[] }> {
    const { active, retired } = await this.#load(model);
    return { active, retired };
  }

  /** Points readers at `next`; the previous version is kept (retired) until dropped. */
  async switchTo(model: ReadModelName, next: ReadModelVersion): Promise<ReadModelVersion> {
    const { active: previous, retired } = await this.#load(model);
    await this.#pointers.updateOne(
      { _id: model },
      { $set: { active: next, retired: [...retired.filter((item) => item.version !== next.version), previous], switched_at: new Date() } },
    );
    this.#cache.delete(model);
    return previous;
  }

  /** Drops a version's collections (its documents and its counters); a missing one is no error. */
  async dropVersion(version: ReadModelVersion): Promise<void> {
    for (const name of [version.collection, countsCollectionName(version.collection)]) await this.#db.collection(name).drop().catch(() => false);
  }

  /** Drops the collections of retired versions. */
  async dropRetired(model: ReadModelName): Promise<ReadModelVersion[]> {
    const { retired } = await this.versions(model);
    for (const version of retired) await this.dropVersion(version);
    await this.#pointers.updateOne({ _id: model }, { $set: { retired: [] } });
    return retired;
  }
}
