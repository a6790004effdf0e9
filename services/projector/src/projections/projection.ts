import type { ConsumedEvent } from '@herald/kafka';
import type { Position, ProjectedDocument } from '@herald/mongo';

export type { Position, ProjectedDocument } from '@herald/mongo';

/**
 * A read model built from events. `evolve` is pure and total: it returns the
 * new document, or the same reference when the event changes nothing (already
 * applied, not relevant, or unexpected — the runner logs those).
 */
export interface Projection<Doc extends ProjectedDocument> {
  /** Read model (collection) name; also names the consumer group. */
  name: string;
  /** Bumped when evolve changes meaning: a new version is rebuilt from the start. */
  version: number;
  topics: readonly string[];
  /** Which document an event belongs to; undefined when this projection ignores the event. */
  documentId(record: ConsumedEvent): string | undefined;
  evolve(state: Doc | undefined, record: ConsumedEvent): Doc | undefined;
}

/** True when the record is at or below the position the document already reflects. */
export function alreadyApplied(state: { position: Position } | undefined, record: Pick<ConsumedEvent, 'partition' | 'offset'>): boolean {
  return state !== undefined && state.position.partition === record.partition && state.position.offset >= record.offset;
}

export function positionOf(record: Pick<ConsumedEvent, 'partition' | 'offset'>): Position {
  return { partition: record.partition, offset: record.offset };
}

export function consumerGroupFor(projection: Pick<Projection<ProjectedDocument>, 'name' | 'version'>): string {
  return `herald.projector.${projection.name}.v${projection.version}`;
}
