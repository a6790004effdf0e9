import type { Collection, AnyBulkWriteOperation } from '@herald/mongo';
import { wrapMongoError } from '@herald/mongo';
import type { ConsumedEvent } from '@herald/kafka';
import type { Logger } from '@herald/log';
import type { Projection, ProjectedDocument } from './projection.ts';

export interface ApplyResult {
  /** (event, document) pairs that changed a document. */
  applied: number;
  /** (event, document) pairs that changed nothing: replays, or events for documents never created. */
  skipped: number;
  /** Documents written. */
  written: number;
}

/**
 * Applies a chunk of events to a read model: loads the documents they touch,
 * folds the events in order with the pure `evolve`, and writes each changed
 * document once, in one bulkWrite. Each document has a single writer (its
 * events share a Kafka key, so one partition, so one consumer), which is why
 * read-modify-write is safe here, on MongoDB and on FerretDB alike.
 */
export async function applyProjection<Doc extends ProjectedDocument>(
  projection: Projection<Doc>,
  collection: Collection<Doc>,
  records: readonly ConsumedEvent[],
  logger: Logger,
): Promise<ApplyResult> {
  const ids = new Set<string>();
  for (const record of records) for (const id of projection.documentIds(record)) ids.add(id);
  if (ids.size === 0) return { applied: 0, skipped: 0, written: 0 };

  const state = new Map<string, Doc>();
  const existing = new Set<string>();
  try {
    const found = await collection.find({ _id: { $in: [...ids] } } as never).toArray();
    for (const doc of found) {
      state.set(doc._id, doc as Doc);
      existing.add(doc._id);
    }
  } catch (error) {
    throw wrapMongoError(error);
  }

  const changed = new Set<string>();
  let applied = 0;
  let skipped = 0;
  for (const record of records) {
    for (const id of projection.documentIds(record)) {
      const before = state.get(id);
      const after = projection.evolve(before, record, id);
      if (after === before || after === undefined) {
        skipped += 1;
        continue;
      }
      state.set(id, after);
      changed.add(id);
      applied += 1;
    }
  }
  if (skipped > 0) {
    logger.debug({ model: projection.name, skipped }, 'event applications skipped (already applied, or for unknown documents)');
  }
  if (changed.size === 0) return { applied, skipped, written: 0 };

  try {
    await writeDocuments(collection, [...changed].map((id) => state.get(id)!), existing);
  } catch (error) {
    throw wrapMongoError(error);
  }
  return { applied, skipped, written: changed.size };
}

/**
 * FerretDB 1.24 hangs on an `update` command of 100 or more updates that
 * match existing documents, and its updates are slow (a read-modify-write
 * each) while inserts are fast. So new documents are inserted in one go and
 * existing ones replaced in slices well below that limit.
 */
const REPLACE_SLICE = 50;

async function writeDocuments<Doc extends ProjectedDocument>(collection: Collection<Doc>, docs: readonly Doc[], existing: ReadonlySet<string>): Promise<void> {
  const fresh = docs.filter((doc) => !existing.has(doc._id));
  const known = docs.filter((doc) => existing.has(doc._id));
  if (fresh.length > 0) await collection.insertMany(fresh as never, { ordered: false });
  for (let start = 0; start < known.length; start += REPLACE_SLICE) {
    const operations = known
      .slice(start, start + REPLACE_SLICE)
      .map((doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } }) as unknown as AnyBulkWriteOperation<Doc>);
    await collection.bulkWrite(operations, { ordered: false });
  }
}
