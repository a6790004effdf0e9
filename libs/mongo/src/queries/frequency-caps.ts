import type { Collection } from 'mongodb';
import { retry } from '@herald/retry';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { wrapMongoError } from '../connect-mongo.ts';
import { driverDb, type Store } from '../store-handle.ts';

/** One device's or user's cap state in one project: `_id` = `<project>|d:<device id>` or `<project>|u:<external_id>`. */
export interface CapDocument<Entry> {
  _id: string;
  project_id: string;
  entries: Entry[];
  updated_at: Date;
}

/**
 * `frequency_caps`: per device (or user) the campaign pushes admitted within
 * the window (services/delivery caps.ts decides what an entry is). A step
 * reads its page's keys in one query and writes the keys it changed in one
 * bulk write, before its transaction commits; a step run again finds its own
 * entries and decides the same.
 */
export class FrequencyCaps<Entry> {
  readonly #caps: Collection<CapDocument<Entry>>;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#caps = db.collection<CapDocument<Entry>>(ADMIN_COLLECTIONS.frequencyCaps);
  }

  /** The entries of these keys (`d:<device id>`, `u:<external_id>`) in the project; keys without state are absent. */
  async read(projectId: string, keys: readonly string[]): Promise<Map<string, Entry[]>> {
    const state = new Map<string, Entry[]>();
    if (keys.length === 0) return state;
    const ids = [...new Set(keys)].map((key) => `${projectId}|${key}`);
    const docs = await guard(() => this.#caps.find({ _id: { $in: ids } }, { projection: { entries: 1 } }).toArray());
    for (const doc of docs) state.set(doc._id.slice(projectId.length + 1), doc.entries);
    return state;
  }

  /** Sets the entries of the keys that changed (creating their documents). */
  async write(projectId: string, changed: ReadonlyMap<string, Entry[]>, now: Date): Promise<void> {
    if (changed.size === 0) return;
    const operations = [...changed].map(([key, entries]) => ({
      updateOne: { filter: { _id: `${projectId}|${key}` }, update: { $set: { project_id: projectId, entries, updated_at: now } }, upsert: true },
    }));
    // A user's devices on two partitions are gated by concurrent steps: both may insert the user's first document, and one
    // then fails on the duplicate key. Written again, it updates the document the other inserted (the per-user bound in docs).
    await retry(() => guard(() => this.#caps.bulkWrite(operations, { ordered: false })), { attempts: 3, classify: isDuplicateKey });
  }
}

async function guard<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw wrapMongoError(error);
  }
}

/** A write refused because another writer inserted the same `_id` first (code 11000), alone or in a bulk write's errors. */
export function isDuplicateKey(error: unknown): boolean {
  const failure = error as { code?: unknown; writeErrors?: unknown } | null;
  if (failure?.code === 11000) return true;
  const writeErrors = Array.isArray(failure?.writeErrors) ? (failure.writeErrors as Array<{ code?: unknown }>) : [];
  return writeErrors.some((item) => item.code === 11000);
}
