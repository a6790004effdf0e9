import type { Collection } from '@herald/mongo';
import { wrapMongoError } from '@herald/mongo';
import type { ConsumedEvent } from '@herald/kafka';
import { insertNew, replaceExisting, type ApplyResult } from './apply-projection.ts';
import { counterId, foldCounts, type CounterDocument, type RecordDelta } from './counts.ts';
import type { Projection, ProjectedDocument } from './projection.ts';
import { forgetWrites, readThrough, type CountedWrites, type WrittenDocuments } from './written-documents.ts';

/**
 * Folds the records into the documents they touch (from `start`), and
 * collects what each change adds to the counters, with the record that
 * caused it. Pure.
 */
export function foldWithCounts<Doc extends ProjectedDocument>(
  projection: Projection<Doc>,
  records: readonly ConsumedEvent[],
  start: ReadonlyMap<string, Doc>,
): { changed: Map<string, Doc>; deltas: RecordDelta[] } {
  const state = new Map(start);
  const changed = new Map<string, Doc>();
  const deltas: RecordDelta[] = [];
  for (const record of records) {
    for (const id of projection.documentIds(record)) {
      const before = state.get(id);
      const after = projection.evolve(before, record, id);
      if (after === before || after === undefined) continue;
      state.set(id, after);
      changed.set(id, after);
      for (const delta of projection.counts?.(before, after) ?? []) deltas.push({ partition: record.partition, offset: record.offset, delta });
    }
  }
  return { changed, deltas };
}

/**
 * Applies a chunk to a read model that keeps counters (counts.ts).
 *
 * Read first: a counter changes by what a document was and what it becomes,
 * so every touched document is read (one `_id: {$in}`), then the chunk is
 * folded. The counters are written before the documents: each counter
 * document remembers the last record it counted, so if the process dies in
 * between, the chunk applied again (from documents not yet written, or
 * written and then skipped by their position guard) adds to the counters
 * only what they do not hold yet. Each document, and each counter document,
 * has one writer: its partition's consumer.
 *
 * `written` (written-documents.ts), when given, holds what this consumer
 * wrote last of both: those are not read again. It learns what is written
 * here, and is cleared when an apply fails.
 */
export async function applyCounted<Doc extends ProjectedDocument>(
  projection: Projection<Doc>,
  collection: Collection<Doc>,
  counters: Collection<CounterDocument>,
  records: readonly ConsumedEvent[],
  written?: CountedWrites<Doc, CounterDocument>,
): Promise<ApplyResult> {
  const touched = new Set<string>();
  for (const record of records) for (const id of projection.documentIds(record)) touched.add(id);
  if (touched.size === 0) return { inserted: 0, replaced: 0 };
  try {
    const current = await readThrough(collection, [...touched], written?.documents);
    const { changed, deltas } = foldWithCounts(projection, records, current);
    await applyCounts(counters, deltas, written?.counters);
    const created = [...changed.values()].filter((doc) => !current.has(doc._id));
    const updated = [...changed.values()].filter((doc) => current.has(doc._id));
    // Created since the read only by another writer of the same partition (a rebalance's overlap): ours replaces it.
    const existed = await insertNew(collection, created);
    await replaceExisting(collection, [...updated, ...created.filter((doc) => existed.has(doc._id))]);
    for (const doc of changed.values()) written?.documents.set(doc._id, doc);
    return { inserted: created.length - existed.size, replaced: updated.length + existed.size };
  } catch (error) {
    forgetWrites(written);
    throw wrapMongoError(error);
  }
}

/** Adds deltas to their counter documents (read unless `written` has them, folded, replaced). */
export async function applyCounts(counters: Collection<CounterDocument>, deltas: readonly RecordDelta[], written?: WrittenDocuments<CounterDocument>): Promise<void> {
  if (deltas.length === 0) return;
  const ids = [...new Set(deltas.map(({ partition, delta }) => counterId(delta.key, delta.project_id, partition)))];
  const changed = foldCounts(await readThrough(counters, ids, written), deltas);
  await replaceExisting(counters, [...changed.values()]);
  for (const doc of changed.values()) written?.set(doc._id, doc);
}
