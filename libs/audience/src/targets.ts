import { deviceIdFor, topicIdFor, type TargetExpression } from '@herald/events';
import { plainTargetKind } from './plain-target.ts';
import { conditionTopicCandidates, isExpression, resolveCondition, type SegmentLookup, type TopicLookup } from './condition.ts';
import type { Audience } from './predicate.ts';

/**
 * What the targets of a send name once topic names are known. A plain
 * string names one kind, chosen by its form (plain-target.ts,
 * docs/guides/targets.md): an id's form the device or topic with that id, a
 * token's form the device holding that token, anything else the topic of
 * that name. Topic names of an id's or a token's form are refused, so a
 * topic and a device can never both answer one string, whichever came
 * first. Typed targets name one kind exactly.
 */
export type { ResolvedAudience } from '@herald/events';


/** Every name and id a send's targets might mean as a topic (what a topic lookup must be able to answer). */
export function topicCandidates(targets: readonly TargetExpression[], segmentOf?: SegmentLookup): string[] {
  const names = new Set<string>();
  for (const target of targets) conditionTopicCandidates(target, names, segmentOf);
  return [...names];
}

/**
 * The resolved audience of a send (pure): topic strings become topic ids
 * through `topicOf`, the rest is kept as named. Plain targets fill the
 * union's lists (the fast path); expressions become resolved conditions
 * (condition.ts), present only when the send has one; a `{"segment": …}`
 * is the filter of the version the send pinned (`segmentOf`).
 */
export function resolveAudience(projectId: string, targets: readonly TargetExpression[], topicOf: TopicLookup, segmentOf?: SegmentLookup): Audience {
  const topicIds = new Set<string>();
  const deviceIds = new Set<string>();
  const tokens = new Set<string>();
  const externalIds = new Set<string>();
  const metadata: Array<Record<string, string>> = [];
  const addTopic = (idOrName: string) => {
    const id = topicOf(projectId, idOrName);
    if (id !== undefined) topicIds.add(id);
  };
  const expressions = targets.filter(isExpression).map((target) => resolveCondition(projectId, target, topicOf, segmentOf));
  for (const target of targets) {
    if (isExpression(target)) continue;
    if (typeof target === 'string') {
      const kind = plainTargetKind(target);
      if (kind === 'token') tokens.add(target);
      else if (kind === 'topic') addTopic(target);
      else {
        deviceIds.add(target);
        // By id only: a topic named like an id (made before names of that form were refused) is not this one.
        const topicId = topicOf(projectId, target);
        if (topicId === target) topicIds.add(topicId);
      }
    } else if ('topic' in target) addTopic(target.topic);
    else if ('device_id' in target) deviceIds.add(target.device_id);
    else if ('token' in target) tokens.add(target.token);
    else if ('external_id' in target) externalIds.add(target.external_id);
    else if ('metadata' in target) metadata.push({ ...(target.metadata as Record<string, string>) });
  }
  const plain = { topic_ids: [...topicIds], device_ids: [...deviceIds], tokens: [...tokens], external_ids: [...externalIds], metadata };
  return expressions.length === 0 ? plain : { ...plain, expressions };
}

/** A topic lookup over known topics (pure): the read model's rows, or a test's. */
export function topicLookupOf(topics: ReadonlyArray<{ _id: string; project_id: string; name: string }>): TopicLookup {
  const byKey = new Map<string, string>();
  for (const topic of topics) {
    byKey.set(`${topic.project_id}\u0000${topic._id}`, topic._id);
    byKey.set(`${topic.project_id}\u0000${topic.name}`, topic._id);
  }
  return (projectId, idOrName) => byKey.get(`${projectId}\u0000${idOrName}`);
}

/** Whether an audience can only hold devices it names (ids, tokens): no topic, user or metadata target. */
export function namesDevicesOnly(audience: Audience): boolean {
  return (audience.expressions ?? []).length === 0 && audience.topic_ids.length === 0 && audience.external_ids.length === 0 && audience.metadata.length === 0;
}

/**
 * The device-events partitions an audience's devices can live on (pure).
 * A device id is the key of its events; a token is looked up under the id
 * derived from it (a device that took the token in a refresh leaves a
 * TokenAssigned there). Anything else may be anywhere.
 */
export function partitionsOf(projectId: string, audience: Audience, partitionOf: (key: string) => number, partitionCount: number): number[] {
  if (!namesDevicesOnly(audience)) return Array.from({ length: partitionCount }, (_, partition) => partition);
  const partitions = new Set<number>();
  for (const id of audience.device_ids) partitions.add(partitionOf(id));
  for (const token of audience.tokens) partitions.add(partitionOf(deviceIdFor(projectId, token)));
  return [...partitions].sort((a, b) => a - b);
}

export { topicIdFor };
