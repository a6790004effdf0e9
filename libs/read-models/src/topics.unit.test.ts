import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS, type HeraldEvent } from '@herald/events';
import type { TopicDocument } from './topics.ts';
import { evolveTopic } from './topics.ts';

const fold = (events: readonly HeraldEvent[], start?: TopicDocument) =>
  events.map((event, offset) => ({ event, topic: TOPICS.topicEvents, partition: 0, offset })).reduce<TopicDocument | undefined>(evolveTopic, start);
const at = (ms: number) => ({ project_id: 'p', now: new Date(ms) });

describe('evolveTopic', () => {
  it('creates a topic once; later creations change nothing; replaying changes nothing', () => {
    const events = [
      createEvent('TopicCreated', { topic_id: 't1', name: 'news', origin: 'project' }, at(1000)),
      createEvent('TopicCreated', { topic_id: 't1', name: 'news', origin: 'device' }, at(2000)),
    ];
    const once = fold(events);
    expect(fold(events, once)).toBe(once);
    expect(once).toEqual({ _id: 't1', project_id: 'p', name: 'news', origin: 'project', created_at: new Date(1000).toISOString(), position: { partition: 0, offset: 0 } });
  });

  it('reads a creation without origin (written before origins) as device-created; the project adopts it by creating it', () => {
    const legacy = fold([createEvent('TopicCreated', { topic_id: 't1', name: 'news' }, at(1000))]);
    expect(legacy?.origin).toBe('device');
    const adopted = fold([createEvent('TopicCreated', { topic_id: 't1', name: 'news' }, at(1000)), createEvent('TopicCreated', { topic_id: 't1', name: 'news', origin: 'project' }, at(2000))]);
    expect(adopted).toMatchObject({ origin: 'project', created_at: new Date(1000).toISOString() });
  });

  it('deletes to a tombstone; a later creation makes it anew; replays converge', () => {
    const events = [
      createEvent('TopicCreated', { topic_id: 't1', name: 'news', origin: 'device' }, at(1000)),
      createEvent('TopicDeleted', { topic_id: 't1', name: 'news' }, at(2000)),
    ];
    const deleted = fold(events);
    expect(deleted).toMatchObject({ deleted_at: new Date(2000).toISOString(), origin: 'device' });
    expect(fold(events, deleted)).toBe(deleted);
    const revived = fold([...events, createEvent('TopicCreated', { topic_id: 't1', name: 'news', origin: 'project' }, at(3000))]);
    expect(revived).toEqual({ _id: 't1', project_id: 'p', name: 'news', origin: 'project', created_at: new Date(3000).toISOString(), position: { partition: 0, offset: 2 } });
    expect(fold([createEvent('TopicDeleted', { topic_id: 't2', name: 'x' }, at(1))])).toBeUndefined();
  });
});
