import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS } from '@herald/events';
import type { TopicDocument } from './topics.ts';
import { evolveTopic } from './topics.ts';

describe('evolveTopic', () => {
  it('creates a topic once; later creations change nothing', () => {
    const first = createEvent('TopicCreated', { topic_id: 't1', name: 'news' }, { project_id: 'p', now: new Date(1000) });
    const again = createEvent('TopicCreated', { topic_id: 't1', name: 'news' }, { project_id: 'p', now: new Date(2000) });
    const records = [first, again].map((event, offset) => ({ event, topic: TOPICS.topicEvents, partition: 0, offset }));
    const once = records.reduce<TopicDocument | undefined>(evolveTopic, undefined);
    expect(records.reduce<TopicDocument | undefined>(evolveTopic, once)).toBe(once);
    expect(once).toEqual({ _id: 't1', project_id: 'p', name: 'news', created_at: new Date(1000).toISOString(), position: { partition: 0, offset: 0 } });
  });
});
