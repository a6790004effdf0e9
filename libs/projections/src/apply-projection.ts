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
  try {
    const found = await collection.find({ _id: { $in: [...ids] } } as never).toArray();
    for (const doc of found) state.set(doc._id, doc as Doc);
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

  const operations = [...changed].map(
    (id) => ({ replaceOne: { filter: { _id: id }, replacement: state.get(id)!, upsert: true } }) as unknown as AnyBulkWriteOperation<Doc>,
  );
  try {
    await collection.bulkWrite(operations, { ordered: false });
  } catch (error) {
    throw wrapMongoError(error);
  }
  return { applied, skipped, written: changed.size };
}
