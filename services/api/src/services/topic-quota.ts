import { countMatching, type Collection } from '@herald/mongo';
import type { TopicDocument } from '@herald/projections';
import { ValidationError } from '@herald/errors';
import { DEVICE_LIMITS } from '../domain/device-limits.ts';

/**
 * Refuses topic ids that would take a project past its topic limit. Device
 * registrations create topics without an API key, so without this a stranger
 * could grow a project's topics without bound. Existing topics are looked up
 * by id (cheap on every store); the project's topics are counted only when a
 * new one would be created. Checked at request time: concurrent requests may
 * overshoot by what they create together.
 */
export async function assertRoomForTopics(topics: Collection<TopicDocument>, projectId: string, topicIds: readonly string[]): Promise<void> {
  if (topicIds.length === 0) return;
  const found = await Promise.all(topicIds.map((id) => topics.findOne({ _id: id, project_id: projectId }, { projection: { _id: 1 } })));
  const created = found.filter((topic) => topic === null).length;
  if (created === 0) return;
  const limit = DEVICE_LIMITS.topicsPerProject;
  const existing = await countMatching(topics, { project_id: projectId }, { limit: limit + 1 });
  if (existing + created > limit) {
    throw new ValidationError([`topics would create ${created} new topic(s) in a project that has ${existing}; a project has at most ${limit} topics`]);
  }
}
