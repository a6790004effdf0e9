import { TOPICS } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import { alreadyApplied, positionOf, type Projection, type ProjectedDocument } from './projection.ts';

/**
 * The devices that subscribed to one small topic through one partition of
 * `herald.device-events`. One document per (topic, partition) gives each
 * document a single writer, like every read model (apply-projection.ts).
 *
 * Why it exists: FerretDB 1.x answers only `_id` equality from an index (with
 * the build fix in infra/README.md), so
 * finding a topic's devices in the devices read model means decoding every
 * device of the project. This list lets a send to a small topic be found by
 * `_id` lookups instead (services/delivery, SmallAudienceSource).
 */
export interface TopicMembersDocument extends ProjectedDocument {
  topic_id: string;
  partition: number;
  /**
   * Devices that subscribed while the list was short. It only grows: a device
   * that left the topic since (re-registered without it, or inactive) stays
   * listed, so readers check each device's own document.
   */
  device_ids: string[];
  /** More than MEMBERS_PER_PARTITION subscribed here: the list is dropped for good, and readers scan the devices instead. */
  overflowed: boolean;
}

/** Past this many devices in one partition a topic is not small (a fan-out's first page is 1,000 devices). */
export const MEMBERS_PER_PARTITION = 1_000;

export function topicMembersId(topicId: string, partition: number): string {
  return `${topicId}|${partition}`;
}

/** Adds a subscribing device to its topics' lists, once; a list that grows past the limit overflows and stays so. */
export function evolveTopicMembers(state: TopicMembersDocument | undefined, record: ConsumedEvent, id: string): TopicMembersDocument | undefined {
  const { event } = record;
  if (event.type !== 'DeviceRegistered' || alreadyApplied(state, record)) return state;
  const topicId = id.slice(0, id.lastIndexOf('|'));
  if (state?.overflowed === true || !(event.data.topic_ids ?? []).includes(topicId) || state?.device_ids.includes(event.data.device_id) === true) return state;
  const listed = [...(state?.device_ids ?? []), event.data.device_id];
  const overflowed = listed.length > MEMBERS_PER_PARTITION;
  return {
    _id: id,
    project_id: event.project_id,
    topic_id: topicId,
    partition: record.partition,
    device_ids: overflowed ? [] : listed,
    overflowed,
    position: positionOf(record),
  };
}

export const topicMembersProjection: Projection<TopicMembersDocument> = {
  // Read by `_id` only, which every store indexes.
  indexes: [],
  name: 'topic_members',
  topics: [TOPICS.deviceEvents],
  documentIds: (record) => (record.event.type === 'DeviceRegistered' ? (record.event.data.topic_ids ?? []).map((topicId) => topicMembersId(topicId, record.partition)) : []),
  evolve: evolveTopicMembers,
};
