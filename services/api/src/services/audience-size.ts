import { audienceFilter, liveTopicsFilter, resolveAudience, topicCandidates, topicLookupOf, type SegmentLookup } from '@herald/audience';
import type { TargetExpression } from '@herald/events';
import { DeviceQueries, TopicQueries, type ReadModelRegistry } from '@herald/mongo';

export interface AudienceSize {
  ios: number;
  android: number;
  /** Browsers (Web Push subscriptions). */
  web: number;
  /** Android devices with Huawei Mobile Services (Push Kit). */
  huawei: number;
}

/** Every platform's devices together. */
export function audienceTotal(size: AudienceSize): number {
  return size.ios + size.android + size.web + size.huawei;
}

/**
 * How many active devices a send to `targets` reaches now, by platform:
 * the targets resolved as the fan-out resolves them (libs/audience
 * `resolveAudience`, topic names against the project's live topics), and
 * the audience predicate's MongoDB twin (`audienceFilter`, held equal to the
 * delivery index's `matchesAudience` by a property test) counted by the store.
 * `segmentOf` answers the saved segments the send pinned.
 */
export async function audienceSize(readModels: ReadModelRegistry, projectId: string, targets: readonly TargetExpression[], segmentOf?: SegmentLookup): Promise<AudienceSize> {
  const candidates = topicCandidates(targets, segmentOf);
  const live = candidates.length === 0 ? [] : await new TopicQueries(readModels).topicsMatching(liveTopicsFilter(projectId, candidates));
  return new DeviceQueries(readModels).countAudience(audienceFilter(projectId, resolveAudience(projectId, targets, topicLookupOf(live), segmentOf)));
}
