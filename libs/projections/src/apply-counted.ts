import { wrapMongoError, type ModelDocuments } from '@herald/mongo';
import type { ConsumedEvent } from '@herald/kafka';
import type { ApplyResult } from './apply-projection.ts';
import { type CounterDocument, counterId, foldCounts, type ProjectedDocument, type Projection, type RecordDelta } from '@herald/read-models';
import { forgetWrites, readThrough, type CountedWrites, type WrittenDocuments } from './written-documents.ts';
import { anyDue, planWrites, type Held, type Origin } from './held-documents.ts';

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
 * here, and is cleared when an apply fails. With it, a projection that says
 * what to `hold` keeps new documents about to change again in memory for a
 * moment (held-documents.ts): they are folded from there and written once,
 * when finished or when their time is up (`now`), by a later apply — one
 * with no records writes only those whose time is up.
 */
export async function applyCounted<Doc extends ProjectedDocument>(
  projection: Projection<Doc>,
  documents: ModelDocuments<Doc>,
  counters: ModelDocuments<CounterDocument>,
  records: readonly ConsumedEvent[],
  written?: CountedWrites<Doc, CounterDocument>,
  now: number = Date.now(),
): Promise<ApplyResult> {
  const touched = new Set<string>();
  for (const record of records) for (const id of projection.documentIds(record)) touched.add(id);
  const held = written?.held ?? new Map<string, Held<Doc>>();
  if (touched.size === 0 && !anyDue(held, now)) return { inserted: 0, replaced: 0 };
  const assignment = written?.assignment;
  try {
    const stored = await readThrough(documents, [...touched].filter((id) => !held.has(id)), written?.documents);
    const current = new Map(stored);
    for (const id of touched) {
      const kept = held.get(id);
      if (kept !== undefined) current.set(id, kept.doc);
    }
    const { changed, deltas } = foldWithCounts(projection, records, current);
    const removed = removedIds(projection, changed);
    for (const id of removed) {
      changed.delete(id);
      held.delete(id);
    }
    await applyCounts(counters, deltas, written?.counters);
    const hold = written === undefined || projection.hold === undefined ? undefined : (doc: Doc) => projection.hold?.(doc) === true;
    const plan = planWrites({
      changed,
      inStore: new Set(stored.keys()),
      held,
      origins: originsOf(projection, records, current),
      hold,
      now,
      ...(written === undefined ? {} : { holdMs: written.holdMs }),
    });
    // Created since the read only by another writer of the same partition (a rebalance's overlap): ours replaces it.
    const existed = await documents.insertNew(plan.insert);
    await documents.replaceAll([...plan.replace, ...plan.insert.filter((doc) => existed.has(doc._id))]);
    let inserted = plan.insert.length - existed.size;
    if (written !== undefined && written.assignment !== assignment) {
      // The group was joined again meanwhile: what this apply would hold may belong to another member now.
      const late = [...plan.held.values()].map((entry) => entry.doc);
      const lateExisted = await documents.insertNew(late);
      await documents.replaceAll(late.filter((doc) => lateExisted.has(doc._id)));
      inserted += late.length - lateExisted.size;
      plan.insert.push(...late);
      plan.held.clear();
    }
    await documents.deleteIds(removed);
    if (written !== undefined) {
      for (const id of removed) written.documents.delete(id);
      for (const doc of [...plan.insert, ...plan.replace]) written.documents.set(doc._id, doc);
      written.held.clear();
      for (const [id, entry] of plan.held) written.held.set(id, entry);
    }
    return { inserted, replaced: plan.replace.length + existed.size };
  } catch (error) {
    forgetWrites(written);
    throw wrapMongoError(error);
  }
}

/** The documents the chunk removed (`Projection.removes`): deleted, never written, whatever they were before. */
function removedIds<Doc extends ProjectedDocument>(projection: Projection<Doc>, changed: ReadonlyMap<string, Doc>): string[] {
  if (projection.removes === undefined) return [];
  return [...changed.values()].filter((doc) => projection.removes?.(doc) === true).map((doc) => doc._id);
}

/** Where each document this chunk creates came from: its first record (pure). */
function originsOf<Doc extends ProjectedDocument>(projection: Projection<Doc>, records: readonly ConsumedEvent[], current: ReadonlyMap<string, Doc>): Map<string, Origin> {
  const origins = new Map<string, Origin>();
  for (const record of records) {
    for (const id of projection.documentIds(record)) {
      if (!current.has(id) && !origins.has(id)) origins.set(id, { topic: record.topic, partition: record.partition, offset: record.offset });
    }
  }
  return origins;
}

/** Adds deltas to their counter documents (read unless `written` has them, folded, replaced). */
export async function applyCounts(counters: ModelDocuments<CounterDocument>, deltas: readonly RecordDelta[], written?: WrittenDocuments<CounterDocument>): Promise<void> {
  if (deltas.length === 0) return;
  const ids = [...new Set(deltas.map(({ partition, delta }) => counterId(delta.key, delta.project_id, partition)))];
  const changed = foldCounts(await readThrough(counters, ids, written), deltas);
  await counters.replaceAll([...changed.values()]);
  for (const doc of changed.values()) written?.set(doc._id, doc);
}
