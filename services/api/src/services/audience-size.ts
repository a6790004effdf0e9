import { audienceFilter, resolveAudience, splitTargets, topicLookupFilter } from '@herald/audience';
import type { Target } from '@herald/events';
import { countMatching, type ReadModelRegistry } from '@herald/mongo';
import type { DeviceDocument, TopicDocument } from '@herald/projections';

export interface AudienceSize {
  ios: number;
  android: number;
}

/**
 * How many active devices a send to `targets` reaches now, by platform: the
 * fan-out's own resolution (services/delivery `readPage`: splitTargets →
 * topic lookup → resolveAudience → audienceFilter with activeOnly), counted
 * by the store instead of read. Kept in this one function so the target
 * resolution can be re-wired here alone when libs/audience changes.
 */
export async function audienceSize(readModels: ReadModelRegistry, projectId: string, targets: readonly Target[]): Promise<AudienceSize> {
  const spec = splitTargets(targets);
  const topics = await readModels.collection<TopicDocument>('topics');
  const named = spec.names.length === 0 ? [] : await topics.find(topicLookupFilter(projectId, spec)).project<Pick<TopicDocument, '_id' | 'name'>>({ _id: 1, name: 1 }).toArray();
  const filter = audienceFilter(resolveAudience(projectId, spec, named), { activeOnly: true });
  const devices = await readModels.collection<DeviceDocument>('devices');
  const [ios, android] = await Promise.all((['ios', 'android'] as const).map((platform) => countMatching(devices, { ...filter, platform })));
  return { ios: ios!, android: android! };
}
