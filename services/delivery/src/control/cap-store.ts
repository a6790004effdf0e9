import { ADMIN_COLLECTIONS, wrapMongoError, type Collection, type Db } from '@herald/mongo';
import { retry } from '@herald/runtime';
import type { CapEntry } from './caps.ts';

/** One device's or user's cap state in one project: `_id` = `<project>|d:<device id>` or `<project>|u:<external_id>`. */
export interface CapDocument {
  _id: string;
  project_id: string;
  entries: CapEntry[];
  updated_at: Date;
}

/** What the fan-out step needs of the cap state (a fake in unit tests). */
export interface CapState {
  read(projectId: string, keys: readonly string[]): Promise<Map<string, CapEntry[]>>;
  write(projectId: string, changed: ReadonlyMap<string, CapEntry[]>, now: Date): Promise<void>;
}

/**
 * `frequency_caps`: per device (or user) the campaign pushes admitted within
 * the window (`caps.ts`). A step reads its page's keys in one query and
 * writes the keys it changed in one bulk write, before its transaction
 * commits; a step run again finds its own entries and decides the same.
 */
export class CapStore implements CapState {
  readonly #caps: Collection<CapDocument>;

  constructor(db: Db) {
    this.#caps = db.collection<CapDocument>(ADMIN_COLLECTIONS.frequencyCaps);
  }

  async read(projectId: string, keys: readonly string[]): Promise<Map<string, CapEntry[]>> {
    const state = new Map<string, CapEntry[]>();
    if (keys.length === 0) return state;
    const ids = [...new Set(keys)].map((key) => `${projectId}|${key}`);
    const docs = await this.#guard(() => this.#caps.find({ _id: { $in: ids } }, { projection: { entries: 1 } }).toArray());
    for (const doc of docs) state.set(doc._id.slice(projectId.length + 1), doc.entries);
    return state;
  }

  async write(projectId: string, changed: ReadonlyMap<string, CapEntry[]>, now: Date): Promise<void> {
    if (changed.size === 0) return;
    const operations = [...changed].map(([key, entries]) => ({
      updateOne: { filter: { _id: `${projectId}|${key}` }, update: { $set: { project_id: projectId, entries, updated_at: now } }, upsert: true },
    }));
    // A user's devices on two partitions are gated by concurrent steps: both may insert the user's first document, and one
    // then fails on the duplicate key. Written again, it updates the document the other inserted (the per-user bound in docs).
    await retry(() => this.#guard(() => this.#caps.bulkWrite(operations, { ordered: false })), { attempts: 3, classify: isDuplicateKey });
  }

  async #guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw wrapMongoError(error);
    }
  }
}

/** A write refused because another writer inserted the same `_id` first (code 11000), alone or in a bulk write's errors. */
export function isDuplicateKey(error: unknown): boolean {
  const failure = error as { code?: unknown; writeErrors?: unknown } | null;
  if (failure?.code === 11000) return true;
  const writeErrors = Array.isArray(failure?.writeErrors) ? (failure.writeErrors as Array<{ code?: unknown }>) : [];
  return writeErrors.some((item) => item.code === 11000);
}
