import { audienceFilter, liveTopicsFilter, resolveAudience, topicCandidates, topicLookupOf } from '@herald/audience';
import type { Target } from '@herald/events';
import { countMatching, type ReadModelRegistry } from '@herald/mongo';
import type { DeviceDocument, TopicDocument } from '@herald/read-models';

export interface AudienceSize {
  ios: number;
  android: number;
}

/**
 * How many active devices a send to `targets` reaches now, by platform:
 * the targets resolved as the fan-out resolves them (libs/audience
 * `resolveAudience`, topic names against the project's live topics), and
 * the audience predicate's MongoDB twin (`audienceFilter`, held equal to the
 * delivery index's `matchesAudience` by a property test) counted by the store.
 */
export async function audienceSize(readModels: ReadModelRegistry, projectId: string, targets: readonly Target[]): Promise<AudienceSize> {
  const candidates = topicCandidates(targets);
  const topics = await readModels.collection<TopicDocument>('topics');
  const live = candidates.length === 0 ? [] : await topics.find(liveTopicsFilter(projectId, candidates)).project<Pick<TopicDocument, '_id' | 'project_id' | 'name'>>({ _id: 1, project_id: 1, name: 1 }).toArray();
  const filter = audienceFilter(projectId, resolveAudience(projectId, targets, topicLookupOf(live)));
  const devices = await readModels.collection<DeviceDocument>('devices');
  const [ios, android] = await Promise.all((['ios', 'android'] as const).map((platform) => countMatching(devices, { ...filter, platform })));
  return { ios: ios!, android: android! };
}
