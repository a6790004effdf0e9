import type { IndexDefinition } from './index-definition.ts';

/**
 * Counters a read model keeps beside its documents, so that a listing's
 * total is read from a few small documents instead of counted over every
 * matching document (issue 21: a count of a million devices decoded a
 * million rows on the local store).
 *
 * The projection that owns a read model computes, for each document it
 * changes, what the change adds to its project's counters (`Projection.counts`,
 * a pure function of the document before and after). The counters live in
 * one document per (key, project, partition of the read model's topic): a
 * partition has one consumer, so each counter document has one writer,
 * which FerretDB needs (it loses concurrent updates of one document). A
 * reader sums a project's documents (`readCounts`).
 */

/** A change to one group of a project's counters (`key`: 'devices', 'topic:<id>', 'notifications'). */
export interface CountDelta {
  project_id: string;
  key: string;
  by: Record<string, number>;
}

/** A delta and the Kafka record that caused it. */
export interface RecordDelta {
  partition: number;
  offset: number;
  delta: CountDelta;
}

/** One group of a project's counters, as applied from one partition. */
export interface CounterDocument {
  _id: string;
  project_id: string;
  key: string;
  partition: number;
  /** The last record whose changes `counts` includes: a chunk applied again after a crash adds only what is newer. */
  offset: number;
  counts: Record<string, number>;
}

/** `{project_id, key}`: a project's counters of some keys (all its partitions). */
export const COUNTER_INDEXES: readonly IndexDefinition[] = [{ key: { project_id: 1, key: 1 }, name: 'by_project_key' }];

export function counterId(key: string, projectId: string, partition: number): string {
  return `${key}|${projectId}|${partition}`;
}

/** Adds `sign` × one to a field of a group, in a map of groups being built. */
export function tally(groups: Map<string, Record<string, number>>, key: string, field: string, sign: number): void {
  const group = groups.get(key) ?? {};
  group[field] = (group[field] ?? 0) + sign;
  groups.set(key, group);
}

/** The non-zero changes of a map of groups, as deltas of one project. */
export function deltasOf(projectId: string, groups: ReadonlyMap<string, Record<string, number>>): CountDelta[] {
  const deltas: CountDelta[] = [];
  for (const [key, group] of groups) {
    let by: Record<string, number> | undefined;
    for (const field in group) {
      const n = group[field]!;
      if (n !== 0) (by ??= {})[field] = n;
    }
    if (by !== undefined) deltas.push({ project_id: projectId, key, by });
  }
  return deltas;
}

/**
 * The counter documents after the deltas (pure): a delta counts only if its
 * record is newer than the document's `offset` (a chunk may be applied
 * twice: counters are written before the documents they count, so after a
 * crash in between the replayed chunk must not add its deltas again).
 * Returns the documents that changed.
 */
export function foldCounts(current: ReadonlyMap<string, CounterDocument>, deltas: readonly RecordDelta[]): Map<string, CounterDocument> {
  const changed = new Map<string, CounterDocument>();
  for (const { partition, offset, delta } of deltas) {
    const id = counterId(delta.key, delta.project_id, partition);
    const stored = current.get(id);
    if (offset <= (stored?.offset ?? -1)) continue;
    // Each changed document is a copy made once per chunk and added to in place: `current` is never modified.
    let doc = changed.get(id);
    if (doc === undefined) {
      doc = { _id: id, project_id: delta.project_id, key: delta.key, partition, offset, counts: { ...stored?.counts } };
      changed.set(id, doc);
    }
    for (const field in delta.by) doc.counts[field] = (doc.counts[field] ?? 0) + delta.by[field]!;
    doc.offset = Math.max(offset, doc.offset);
  }
  return changed;
}

/** Sums counter documents by key. */
export function sumCounts(docs: ReadonlyArray<Pick<CounterDocument, 'key' | 'counts'>>): Map<string, Record<string, number>> {
  const sums = new Map<string, Record<string, number>>();
  for (const doc of docs) for (const [field, n] of Object.entries(doc.counts)) tally(sums, doc.key, field, n);
  return sums;
}
