/**
 * Documents a projection created and keeps in memory, unwritten, for a
 * moment, because they are about to change again. A one-device send's
 * notification is requested, then dispatched and reported about half a
 * second later when the machine is saturated: written at once, it costs an
 * insert and then a replace or two (on the local store a replace costs
 * about four inserts: 1.28 replaces per send at 1,000 sends/s). Held until
 * it is finished or `HOLD_MS` old, it is one insert.
 *
 * Nothing is lost by holding: the consumer never commits its position past
 * the first record of a held document (`firstHeld`, run-consumer.ts
 * `heldFrom`), so after a crash or a rebalance that record is read again
 * and the document made again. Readers see a held document up to `HOLD_MS`
 * later, as they would if the read model were that much further behind.
 */
export const HOLD_MS = 3_000;

/** At most this many documents held at once (a burst of requests): past it, new documents are written at once. */
export const HELD_DOCUMENTS_MAX = 20_000;

export interface Held<Doc> {
  doc: Doc;
  /** The record that created it: the consumer's position stays before it while the document is held. */
  topic: string;
  partition: number;
  offset: number;
  /** Written at the first apply after this time (ms), changed or not. */
  until: number;
}

export interface Origin {
  topic: string;
  partition: number;
  offset: number;
}

export interface WritePlan<Doc> {
  insert: Doc[];
  replace: Doc[];
  /** What stays held after this apply (all of it: those not listed are no longer held). */
  held: Map<string, Held<Doc>>;
}

/**
 * Which changed documents to insert, to replace, or to hold (pure).
 * - in the store already: replaced;
 * - held and changed: held on while `hold` still says so and its time is
 *   not up, otherwise inserted (it is not in the store);
 * - held, unchanged, its time up: inserted;
 * - new: held when `hold` says so and there is room, otherwise inserted.
 */
export function planWrites<Doc extends { _id: string }>(input: {
  changed: ReadonlyMap<string, Doc>;
  inStore: ReadonlySet<string>;
  held: ReadonlyMap<string, Held<Doc>>;
  origins: ReadonlyMap<string, Origin>;
  hold: ((doc: Doc) => boolean) | undefined;
  now: number;
  holdMs?: number;
  max?: number;
}): WritePlan<Doc> {
  const { changed, inStore, held, origins, hold, now } = input;
  const holdMs = input.holdMs ?? HOLD_MS;
  const max = input.max ?? HELD_DOCUMENTS_MAX;
  const plan: WritePlan<Doc> = { insert: [], replace: [], held: new Map() };
  for (const [id, before] of held) {
    const doc = changed.get(id) ?? before.doc;
    if (now < before.until && (!changed.has(id) || hold?.(doc) === true)) plan.held.set(id, { ...before, doc });
    else plan.insert.push(doc);
  }
  for (const [id, doc] of changed) {
    if (held.has(id)) continue;
    if (inStore.has(id)) {
      plan.replace.push(doc);
      continue;
    }
    const origin = origins.get(id);
    if (origin !== undefined && hold?.(doc) === true && plan.held.size < max) plan.held.set(id, { doc, ...origin, until: now + holdMs });
    else plan.insert.push(doc);
  }
  return plan;
}

/** The first offset of `partition` (of `topic`) that a held document came from, if any (pure). */
export function firstHeld(held: ReadonlyMap<string, Held<unknown>>, topic: string, partition: number): number | undefined {
  let first: number | undefined;
  for (const entry of held.values()) {
    if (entry.topic === topic && entry.partition === partition && (first === undefined || entry.offset < first)) first = entry.offset;
  }
  return first;
}

/** Whether any held document's time is up (pure). */
export function anyDue(held: ReadonlyMap<string, Held<unknown>>, now: number): boolean {
  for (const entry of held.values()) if (now >= entry.until) return true;
  return false;
}
