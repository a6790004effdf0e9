import type { EventType, ConsumedEvent } from '@herald/events';
import type { Position, ProjectedDocument } from './documents.ts';
import type { IndexDefinition } from './index-definition.ts';
import type { ReadModelName } from './read-model-names.ts';
import type { CountDelta } from './counts.ts';

/**
 * A read model built from events. `evolve` is pure and total: it returns the
 * new document, or the same reference when the event changes nothing
 * (already applied, not relevant, or unexpected — the runner counts those).
 */
export interface Projection<Doc extends ProjectedDocument> {
  name: ReadModelName;
  topics: readonly string[];
  /** What its queries need; created on each version's collection before the projection runs. */
  indexes: readonly IndexDefinition[];
  /** The documents an event touches (none when this read model ignores it). */
  documentIds(record: ConsumedEvent): readonly string[];
  /**
   * The only event types it folds, when they are few of its topics' records:
   * the others are passed over by their `type` header, undecoded (decoding
   * validates every field; the notification-events topic is read by three
   * projections).
   */
  types?: readonly EventType[];
  evolve(state: Doc | undefined, record: ConsumedEvent, id: string): Doc | undefined;
  /**
   * Counters kept beside the documents (counts.ts): what one document's
   * change adds to its project's counters. Pure, like `evolve`.
   */
  counts?(before: Doc | undefined, after: Doc): CountDelta[];
  /**
   * Fetch in bulk (run-consumer.ts `fetch`): for a read model whose documents
   * take several events in quick succession, so they fold into one write.
   * Its readers then see it up to `maxWaitMs` later under light load.
   */
  fetch?: { minBytes: number; maxWaitMs: number };
  /**
   * A document just made that is about to change again (a notification
   * requested, not yet sent): a counted projection keeps it in memory up to
   * HOLD_MS and writes it once (held-documents.ts). Pure.
   */
  hold?(doc: Doc): boolean;
  /**
   * A document its events have removed (a purged device): a counted
   * projection's apply deletes it instead of writing it (apply-counted.ts).
   * Pure.
   */
  removes?(doc: Doc): boolean;
}

/** Any projection, for code that runs them without caring about their document type. */
export type AnyProjection = Projection<ProjectedDocument>;

/** True when the record is at or below the position the document already reflects. */
export function alreadyApplied(state: { position: Position } | undefined, record: Pick<ConsumedEvent, 'partition' | 'offset'>): boolean {
  return state !== undefined && state.position.partition === record.partition && state.position.offset >= record.offset;
}

export function positionOf(record: Pick<ConsumedEvent, 'partition' | 'offset'>): Position {
  return { partition: record.partition, offset: record.offset };
}
