import type { TopicQueries } from '@herald/mongo';
import { ValidationError } from '@herald/errors';
import type { TopicOrigin } from '@herald/events';
import { DEVICE_LIMITS } from '../domain/device-limits.ts';

const LIMIT: Record<TopicOrigin, number> = { project: DEVICE_LIMITS.topicsPerProject, device: DEVICE_LIMITS.deviceTopicsPerProject };

/**
 * Refuses creating `created` topics of an origin past its quota. Project and
 * device-created topics are counted apart: devices (strangers, in a project
 * that lets them create topics) can never take the room of the project's own
 * topics, and the project can reclaim device-created ones nobody subscribes
 * to. Counted at request time: concurrent requests may overshoot by what
 * they create together.
 */
export async function assertRoomForTopics(topics: Pick<TopicQueries, 'countTopicsOf'>, projectId: string, origin: TopicOrigin, created: number): Promise<void> {
  if (created === 0) return;
  const limit = LIMIT[origin];
  const existing = await topics.countTopicsOf(projectId, origin, limit + 1);
  if (existing + created <= limit) return;
  const what = origin === 'project' ? 'topics' : 'device-created topics';
  const hint = origin === 'device' ? ' (POST /api/v1/topics/reclaim deletes those nobody subscribes to)' : '';
  throw new ValidationError([
    `${origin === 'project' ? 'name' : 'topics'} would create ${created} new ${what} in a project that has ${existing}; a project has at most ${limit} ${what}${hint}`,
  ]);
}
