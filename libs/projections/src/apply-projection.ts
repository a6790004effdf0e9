import { wrapMongoError, type ModelDocuments } from '@herald/mongo';
import type { ConsumedEvent } from '@herald/kafka';
import type { Logger } from '@herald/log';
import type { ProjectedDocument, Projection } from '@herald/read-models';

export interface ApplyResult {
  /** Documents created by the first, insert-only attempt. */
  inserted: number;
  /** Documents that already existed (or might) and were read, folded and replaced. */
  replaced: number;
}

/**
 * Folds the records, in order, into the documents they touch, starting from
 * the given states (absent documents start undefined). Pure: returns only the
 * documents that changed.
 */
export function foldRecords<Doc extends ProjectedDocument>(
  projection: Projection<Doc>,
  records: readonly ConsumedEvent[],
  start: ReadonlyMap<string, Doc>,
  only?: ReadonlySet<string>,
): Map<string, Doc> {
  const state = new Map(start);
  const changed = new Map<string, Doc>();
  for (const record of records) {
    for (const id of projection.documentIds(record)) {
      if (only !== undefined && !only.has(id)) continue;
      const before = state.get(id);
      const after = projection.evolve(before, record, id);
      if (after === before || after === undefined) continue;
      state.set(id, after);
      changed.set(id, after);
    }
  }
  return changed;
}

/**
 * Applies a chunk of events to a read model. Each document has a single
 * writer (its events share a Kafka key, so one partition, so one consumer),
 * so read-modify-write is safe.
 *
 * Insert first, read only when needed: most events create documents
 * (registrations, requests, batch reports), and an insert costs one write
 * where a lookup first costs a read. So the chunk is first folded as if
 * every document were new and inserted; documents that turn out to exist
 * (duplicate key), and those the fold could not create (an update for a
 * document not seen here), are then read by `_id` (one `$in`), folded from
 * their real state, and replaced. The position guard in `evolve` makes the
 * second fold skip what a document already reflects.
 *
 * A projection that keeps counters (`counts`) is applied by applyCounted
 * instead, which must know every document's state before it writes.
 */
export async function applyProjection<Doc extends ProjectedDocument>(
  projection: Projection<Doc>,
  documents: ModelDocuments<Doc>,
  records: readonly ConsumedEvent[],
  logger: Logger,
): Promise<ApplyResult> {
  const touched = new Set<string>();
  for (const record of records) for (const id of projection.documentIds(record)) touched.add(id);
  if (touched.size === 0) return { inserted: 0, replaced: 0 };

  try {
    const assumedNew = foldRecords(projection, records, new Map());
    const duplicates = await documents.insertNew([...assumedNew.values()]);
    const toRead = new Set([...touched].filter((id) => !assumedNew.has(id) || duplicates.has(id)));
    if (toRead.size === 0) return { inserted: assumedNew.size, replaced: 0 };

    const current = await documents.byIds([...toRead]);
    const changed = foldRecords(projection, records, current, toRead);
    await documents.replaceAll([...changed.values()]);
    const inserted = assumedNew.size - duplicates.size;
    if (toRead.size > changed.size) logger.debug({ model: projection.name, unchanged: toRead.size - changed.size }, 'documents already up to date or never created');
    return { inserted, replaced: changed.size };
  } catch (error) {
    throw wrapMongoError(error);
  }
}
