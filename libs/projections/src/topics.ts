import { TOPICS } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import { alreadyApplied, positionOf, type Projection, type ProjectedDocument } from './projection.ts';
import type { IndexDescription } from '@herald/mongo';

/** A topic of a project; devices hold the ids of the topics they are subscribed to. */
export interface TopicDocument extends ProjectedDocument {
  name: string;
  created_at: string;
}

/** The indexes this read model's queries need (README "Indexes (query shapes)"). */
export const TOPIC_INDEXES: readonly IndexDescription[] = [
    { key: { project_id: 1, created_at: 1, _id: 1 }, name: 'by_project_created' },
    { key: { project_id: 1, name: 1 }, name: 'by_project_name' },
];



export function evolveTopic(state: TopicDocument | undefined, record: ConsumedEvent): TopicDocument | undefined {
  const { event } = record;
  if (event.type !== 'TopicCreated' || alreadyApplied(state, record)) return state;
  // Creating an existing topic again is a no-op: the first creation fixes name and time.
  if (state !== undefined) return state;
  return {
    _id: event.data.topic_id,
    project_id: event.project_id,
    name: event.data.name,
    created_at: event.occurred_at,
    position: positionOf(record),
  };
}

export const topicsProjection: Projection<TopicDocument> = {
  indexes: TOPIC_INDEXES,
  name: 'topics',
  topics: [TOPICS.topicEvents],
  documentIds: ({ event }) => (event.type === 'TopicCreated' ? [event.data.topic_id] : []),
  evolve: evolveTopic,
};
