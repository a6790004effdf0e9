import { LRUCache } from 'lru-cache';
import type { ModelDocuments } from '@herald/mongo';
import { HOLD_MS, type Held } from './held-documents.ts';

/**
 * The documents a projection's consumer wrote last, by id, so that its next
 * chunks need not read them back: a notification's document is written at
 * its request and read again for its dispatch and for each report, and on
 * the local store a read costs about as much as the write it precedes.
 *
 * Sound because each document has one writer, the consumer of its
 * partition: what this consumer wrote last is what the store holds. So the
 * cache lives only while the consumer keeps its partitions — runProjection
 * clears it at every assignment — and applyCounted clears it when an apply
 * fails (what the store then holds is unknown). A document not here is read.
 *
 * One case it does not cover: a consumer stalled past its session timeout
 * may still write its chunk in flight after its partitions moved, as it
 * could before; it now folds that chunk from its own last state rather
 * than the new owner's, and the new owner's next write of that document
 * (from the new owner's state) puts it right.
 */
export type WrittenDocuments<Doc extends { _id: string }> = LRUCache<string, Doc>;

/** Documents kept per projection: a few seconds of one-device sends, a few MB of heap. */
export const WRITTEN_DOCUMENTS_KEPT = 5_000;

export function writtenDocuments<Doc extends { _id: string }>(max = WRITTEN_DOCUMENTS_KEPT): WrittenDocuments<Doc> {
  return new LRUCache<string, Doc>({ max });
}

/**
 * What a counted projection's consumer wrote last: its documents and its
 * counter documents; and the documents it made and holds unwritten
 * (held-documents.ts).
 */
export interface CountedWrites<Doc extends { _id: string }, Counter extends { _id: string }> {
  documents: WrittenDocuments<Doc>;
  counters: WrittenDocuments<Counter>;
  held: Map<string, Held<Doc>>;
  /** How long a document is held at most (HOLD_MS). */
  holdMs: number;
  /** Moves at each assignment: an apply that began before it holds nothing it made (its partitions may have moved). */
  assignment: number;
}

export function countedWrites<Doc extends { _id: string }, Counter extends { _id: string }>(holdMs = HOLD_MS): CountedWrites<Doc, Counter> {
  return { documents: writtenDocuments<Doc>(), counters: writtenDocuments<Counter>(), held: new Map(), holdMs, assignment: 0 };
}

/**
 * Forgets what it wrote, when what the store holds is unknown (a failed
 * apply). What it holds unwritten stays: it is not in the store either way,
 * and the records it came from will not come again unless the group rejoins.
 */
export function forgetWrites<Doc extends { _id: string }, Counter extends { _id: string }>(written: CountedWrites<Doc, Counter> | undefined): void {
  written?.documents.clear();
  written?.counters.clear();
}

/**
 * At an assignment: forgets everything, what it holds too. The consumer's
 * position never passed a held document's first record, and the group
 * starts again from its committed positions, so those records come again.
 */
export function startOver<Doc extends { _id: string }, Counter extends { _id: string }>(written: CountedWrites<Doc, Counter> | undefined): void {
  if (written === undefined) return;
  forgetWrites(written);
  written.held.clear();
  written.assignment += 1;
}

/** The documents with these ids that exist: from `written` where it has them, the others read by one `_id: {$in}`. */
export async function readThrough<Doc extends { _id: string }>(documents: ModelDocuments<Doc>, ids: readonly string[], written: WrittenDocuments<Doc> | undefined): Promise<Map<string, Doc>> {
  if (written === undefined) return documents.byIds(ids);
  const found = new Map<string, Doc>();
  const missing: string[] = [];
  for (const id of ids) {
    const doc = written.get(id);
    if (doc === undefined) missing.push(id);
    else found.set(id, doc);
  }
  for (const [id, doc] of await documents.byIds(missing)) found.set(id, doc);
  return found;
}
