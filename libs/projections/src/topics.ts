import { TOPICS } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import type { TopicDocument } from '@herald/mongo';
import { alreadyApplied, positionOf, type Projection } from './projection.ts';


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
  name: 'topics',
  topics: [TOPICS.topicEvents],
  documentIds: ({ event }) => (event.type === 'TopicCreated' ? [event.data.topic_id] : []),
  evolve: evolveTopic,
};
