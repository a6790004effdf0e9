import type { AudienceCondition, MetadataCondition, PinnedSegment, TargetExpression } from '@herald/events';
import { canonicalLocale, localeMatches } from './locale.ts';
import { plainTargetKind } from './plain-target.ts';
import type { AudienceDevice } from './audience-device.ts';

export type { AudienceCondition, MetadataCondition, TargetExpression } from '@herald/events';

/** Finds a live topic of the project by id or by name; undefined when there is none (or it was deleted). */
export type TopicLookup = (projectId: string, idOrName: string) => string | undefined;

/** Finds a saved segment's pinned filter by id or name; undefined when the send pinned none such. */
export type SegmentLookup = (idOrName: string) => TargetExpression | undefined;

/** Segments reference segments at most this deep (the API refuses cycles; this bounds a record that carries one anyway). */
export const MAX_SEGMENT_NESTING = 8;

/** A segment lookup over the segments a send pinned (pure). */
export function segmentLookupOf(pinned: readonly PinnedSegment[] = []): SegmentLookup {
  const byRef = new Map<string, TargetExpression>();
  for (const segment of pinned) {
    byRef.set(segment.id, segment.filter);
    byRef.set(segment.name, segment.filter);
  }
  return (ref) => byRef.get(ref);
}

const NO_SEGMENTS: SegmentLookup = () => undefined;

/** A condition no device passes (a topic that does not exist). */
export const NOTHING: AudienceCondition = { or: [] };

/** Whether a target is an expression (an operator or a leaf only expressions have): plain targets keep the union's fast path. */
export function isExpression(target: TargetExpression): boolean {
  if (typeof target === 'string') return false;
  return 'and' in target || 'or' in target || 'not' in target || 'segment' in target || 'platform' in target || 'locale' in target || 'timezone' in target || ('metadata' in target && Object.values(target.metadata).some((test) => typeof test !== 'string'));
}

/** What a plain string names, as a condition: by its form (plain-target.ts), the same reading the union gives it. */
function plainCondition(projectId: string, value: string, topicOf: TopicLookup): AudienceCondition {
  const kind = plainTargetKind(value);
  if (kind === 'token') return { token: value };
  if (kind === 'topic') {
    const id = topicOf(projectId, value);
    return id === undefined ? NOTHING : { topic_id: id };
  }
  // By id only: a topic named like an id (made before names of that form were refused) is not this one.
  const topicId = topicOf(projectId, value);
  return topicId === value ? { or: [{ device_id: value }, { topic_id: topicId }] } : { device_id: value };
}

/**
 * A target as the condition every reader evaluates (pure): topic names
 * become ids through `topicOf` (a topic that does not exist names nothing),
 * locales their canonical form. The target has passed `targetProblems`.
 */
export function resolveCondition(projectId: string, target: TargetExpression, topicOf: TopicLookup, segmentOf: SegmentLookup = NO_SEGMENTS, nesting = 0): AudienceCondition {
  const resolve = (child: TargetExpression) => resolveCondition(projectId, child, topicOf, segmentOf, nesting);
  if (typeof target === 'string') return plainCondition(projectId, target, topicOf);
  if ('and' in target) return { and: target.and.map(resolve) };
  if ('or' in target) return { or: target.or.map(resolve) };
  if ('not' in target) return { not: resolve(target.not) };
  if ('segment' in target) {
    // The version the send pinned; a segment it did not pin (or nested past the bound) names nobody.
    const filter = segmentOf(target.segment);
    return filter === undefined || nesting >= MAX_SEGMENT_NESTING ? NOTHING : resolveCondition(projectId, filter, topicOf, segmentOf, nesting + 1);
  }
  if ('topic' in target) {
    const id = topicOf(projectId, target.topic);
    return id === undefined ? NOTHING : { topic_id: id };
  }
  if ('locale' in target) return { locale: canonicalLocale(target.locale) ?? target.locale };
  if ('metadata' in target) return { metadata: { ...target.metadata } };
  return { ...target };
}

/** Every topic name or id an expression might mean, pinned segments' filters included (what a topic lookup must be able to answer). */
export function conditionTopicCandidates(target: TargetExpression, into: Set<string>, segmentOf: SegmentLookup = NO_SEGMENTS, nesting = 0): void {
  const walk = (child: TargetExpression) => conditionTopicCandidates(child, into, segmentOf, nesting);
  if (typeof target === 'string') {
    if (plainTargetKind(target) !== 'token') into.add(target);
  } else if ('and' in target) target.and.forEach(walk);
  else if ('or' in target) target.or.forEach(walk);
  else if ('not' in target) walk(target.not);
  else if ('topic' in target) into.add(target.topic);
  else if ('segment' in target) {
    const filter = segmentOf(target.segment);
    if (filter !== undefined && nesting < MAX_SEGMENT_NESTING) conditionTopicCandidates(filter, into, segmentOf, nesting + 1);
  }
}

/** Every `{"segment": …}` an expression names, with its path (pure): what a send pins, and where a problem with one is reported. */
export function segmentReferences(target: unknown, path: string, into: Array<{ ref: string; path: string }> = []): Array<{ ref: string; path: string }> {
  if (typeof target !== 'object' || target === null) return into;
  const node = target as Record<string, unknown>;
  if (typeof node.segment === 'string') into.push({ ref: node.segment, path: `${path}.segment` });
  if (Array.isArray(node.and)) node.and.forEach((child, at) => segmentReferences(child, `${path}.and[${at}]`, into));
  if (Array.isArray(node.or)) node.or.forEach((child, at) => segmentReferences(child, `${path}.or[${at}]`, into));
  if ('not' in node) segmentReferences(node.not, `${path}.not`, into);
  return into;
}

/** Whether a device's metadata passes one key test (pure). `ne` passes an unset key: it means "not equal", as MongoDB's `$ne` does. */
export function metadataTestPasses(value: string | undefined, test: MetadataCondition): boolean {
  if (typeof test === 'string') return value === test;
  if ('in' in test) return value !== undefined && test.in.includes(value);
  if ('exists' in test) return (value !== undefined) === test.exists;
  return value !== test.ne;
}

export type DevicePredicate = (device: AudienceDevice) => boolean;

/**
 * A condition compiled once into a predicate over devices (pure): sets for
 * lists, closures for operators, so a fan-out step tests each candidate
 * without walking the expression's JSON. `evaluateCondition` is the same
 * decision, written plainly; a unit test holds them equal.
 */
export function compileCondition(condition: AudienceCondition): DevicePredicate {
  if ('and' in condition) {
    const children = condition.and.map(compileCondition);
    return (device) => children.every((test) => test(device));
  }
  if ('or' in condition) {
    const children = condition.or.map(compileCondition);
    return (device) => children.some((test) => test(device));
  }
  if ('not' in condition) {
    const inner = compileCondition(condition.not);
    return (device) => !inner(device);
  }
  if ('topic_id' in condition) {
    const id = condition.topic_id;
    return (device) => device.topics.includes(id);
  }
  if ('device_id' in condition) return (device) => device._id === condition.device_id;
  if ('token' in condition) return (device) => device.token === condition.token;
  if ('external_id' in condition) return (device) => device.external_id === condition.external_id;
  if ('platform' in condition) return (device) => device.platform === condition.platform;
  if ('timezone' in condition) return (device) => device.timezone === condition.timezone;
  if ('locale' in condition) return (device) => localeMatches(device.locale, condition.locale);
  const tests = Object.entries(condition.metadata).map(([key, test]) => {
    if (typeof test === 'string') return (device: AudienceDevice) => device.metadata[key] === test;
    if ('in' in test) {
      const values = new Set(test.in);
      return (device: AudienceDevice) => {
        const value = device.metadata[key];
        return value !== undefined && values.has(value);
      };
    }
    return (device: AudienceDevice) => metadataTestPasses(device.metadata[key], test);
  });
  return (device) => tests.every((test) => test(device));
}

/** The condition's decision, walked directly (pure): the plain statement `compileCondition` is held to. */
export function evaluateCondition(condition: AudienceCondition, device: AudienceDevice): boolean {
  if ('and' in condition) return condition.and.every((child) => evaluateCondition(child, device));
  if ('or' in condition) return condition.or.some((child) => evaluateCondition(child, device));
  if ('not' in condition) return !evaluateCondition(condition.not, device);
  if ('topic_id' in condition) return device.topics.includes(condition.topic_id);
  if ('device_id' in condition) return device._id === condition.device_id;
  if ('token' in condition) return device.token === condition.token;
  if ('external_id' in condition) return device.external_id === condition.external_id;
  if ('platform' in condition) return device.platform === condition.platform;
  if ('timezone' in condition) return device.timezone === condition.timezone;
  if ('locale' in condition) return localeMatches(device.locale, condition.locale);
  return Object.entries(condition.metadata).every(([key, test]) => metadataTestPasses(device.metadata[key], test));
}

/** The topic ids a resolved condition asks about (explain names them for a person). */
export function conditionTopicIds(condition: AudienceCondition): string[] {
  if ('and' in condition) return condition.and.flatMap(conditionTopicIds);
  if ('or' in condition) return condition.or.flatMap(conditionTopicIds);
  if ('not' in condition) return conditionTopicIds(condition.not);
  return 'topic_id' in condition ? [condition.topic_id] : [];
}
