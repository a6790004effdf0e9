import { TOPICS, type TopicOrigin, type ConsumedEvent } from '@herald/events';
import type { ProjectedDocument } from './documents.ts';
import { alreadyApplied, positionOf, type Projection } from './projection.ts';
import type { IndexDefinition } from './index-definition.ts';

/** A topic of a project; devices hold the ids of the topics they are subscribed to. */
export interface TopicDocument extends ProjectedDocument {
  name: string;
  created_at: string;
  /**
   * Who created it. Absent on documents projected before origins were
   * recorded: read it as `device` (`topicOrigin`), as any device could create
   * topics then.
   */
  origin?: TopicOrigin;
  /**
   * Set once the topic is deleted: the document stays as a tombstone (so a
   * replay converges to the same state) and every reader skips it
   * (`LIVE_TOPIC`). A later creation of the same name revives it.
   */
  deleted_at?: string;
}

/** Who created a topic, for documents written before origins were too. */
export function topicOrigin(doc: Pick<TopicDocument, 'origin'>): TopicOrigin {
  return doc.origin ?? 'device';
}

/** The filter that leaves out deleted topics; every reader of the model adds it. */
export const LIVE_TOPIC = { deleted_at: { $exists: false } } as const;

/** The indexes this read model's queries need (docs/internals/indexes.md). */
export const TOPIC_INDEXES: readonly IndexDefinition[] = [
    { key: { project_id: 1, created_at: 1, _id: 1 }, name: 'by_project_created' },
    { key: { project_id: 1, name: 1 }, name: 'by_project_name' },
];

export function evolveTopic(state: TopicDocument | undefined, record: ConsumedEvent): TopicDocument | undefined {
  const { event } = record;
  if (alreadyApplied(state, record)) return state;
  if (state !== undefined && state.project_id !== event.project_id) return state;
  switch (event.type) {
    case 'TopicCreated': {
      const origin = event.data.origin ?? 'device';
      if (state === undefined || state.deleted_at !== undefined) {
        return { _id: event.data.topic_id, project_id: event.project_id, name: event.data.name, created_at: event.occurred_at, origin, position: positionOf(record) };
      }
      // Creating an existing topic again changes nothing, except that the project adopts a device-created one.
      if (origin === 'project' && topicOrigin(state) !== 'project') return { ...state, origin, position: positionOf(record) };
      return state;
    }
    case 'TopicDeleted':
      if (state === undefined || state.deleted_at !== undefined) return state;
      return { ...state, deleted_at: event.occurred_at, position: positionOf(record) };
    default:
      return state;
  }
}

export const topicsProjection: Projection<TopicDocument> = {
  indexes: TOPIC_INDEXES,
  name: 'topics',
  topics: [TOPICS.topicEvents],
  documentIds: ({ event }) => (event.type === 'TopicCreated' || event.type === 'TopicDeleted' ? [event.data.topic_id] : []),
  evolve: evolveTopic,
};
