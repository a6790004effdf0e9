import type { ConsumedEvent } from '@herald/kafka';
import { evolveTopic, type TopicDocument } from '@herald/read-models';
import { keyPart, type Key } from './index-rows.ts';

/** A topic as the index keeps it: the topics read model's document, evolved by its own `evolveTopic`. */
export type IndexedTopic = TopicDocument;

/** The index's key-value table (`kv`), JSON in and out. */
export interface KeyValues {
  get(key: Key): unknown;
  put(key: Key, value: unknown): void;
}

/**
 * Applies topic events (in log order) to the project's topics in the
 * key-value table: each topic by id (`T i`), and its id by name (`T n`), so
 * a target can name a topic either way.
 */
export function applyTopicEvents(kv: KeyValues, records: readonly ConsumedEvent[]): void {
  for (const record of records) {
    const { event } = record;
    if (event.type !== 'TopicCreated' && event.type !== 'TopicDeleted') continue;
    const key = ['T', 'i', event.project_id, event.data.topic_id];
    const before = kv.get(key) as IndexedTopic | undefined;
    const after = evolveTopic(before, record);
    if (after === undefined || after === before) continue;
    kv.put(key, after);
    kv.put(['T', 'n', event.project_id, keyPart(after.name)], after._id);
  }
}

/** The id of the project's live topic with this id or name. */
export function liveTopicId(kv: KeyValues, projectId: string, idOrName: string): string | undefined {
  const byId = kv.get(['T', 'i', projectId, idOrName]) as IndexedTopic | undefined;
  if (byId !== undefined && byId.deleted_at === undefined) return idOrName;
  const id = kv.get(['T', 'n', projectId, keyPart(idOrName)]) as string | undefined;
  if (id === undefined) return undefined;
  const topic = kv.get(['T', 'i', projectId, id]) as IndexedTopic | undefined;
  return topic !== undefined && topic.deleted_at === undefined && topic.name === idOrName ? id : undefined;
}
