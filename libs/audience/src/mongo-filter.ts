import type { AudienceCondition, MetadataCondition } from '@herald/events';
import type { StoreFilter as Filter } from '@herald/mongo';
import { type DeviceDocument, LIVE_TOPIC, type TopicDocument } from '@herald/read-models';
import type { Audience, ZoneFilter } from './predicate.ts';

/** Matches no document (an empty `$or` is invalid). */
const NONE: Filter<DeviceDocument> = { _id: { $in: [] } };

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function metadataTest(test: MetadataCondition): unknown {
  if (typeof test === 'string') return test;
  if ('in' in test) return { $in: [...test.in] };
  if ('exists' in test) return { $exists: test.exists };
  return { $ne: test.ne };
}

/**
 * A resolved condition (condition.ts) as a MongoDB filter over the devices
 * read model (pure): `evaluateCondition`'s twin, held equal by the property
 * test. `not` is `$nor`, which, like the predicate, passes a device that
 * lacks the field; a locale matches its tag or its subtags' extensions.
 */
export function conditionFilter(condition: AudienceCondition): Filter<DeviceDocument> {
  if ('and' in condition) return condition.and.length === 0 ? {} : { $and: condition.and.map(conditionFilter) };
  if ('or' in condition) return condition.or.length === 0 ? NONE : { $or: condition.or.map(conditionFilter) };
  if ('not' in condition) return { $nor: [conditionFilter(condition.not)] };
  if ('topic_id' in condition) return { topics: condition.topic_id };
  if ('device_id' in condition) return { _id: condition.device_id };
  if ('token' in condition) return { token: condition.token };
  if ('external_id' in condition) return { external_id: condition.external_id };
  if ('platform' in condition) return { platform: condition.platform };
  if ('timezone' in condition) return { timezone: condition.timezone };
  if ('locale' in condition) return { locale: { $regex: `^${escapeRegExp(condition.locale)}(?:-|$)` } };
  const tests: Record<string, unknown> = {};
  for (const [key, test] of Object.entries(condition.metadata)) tests[`metadata.${key}`] = metadataTest(test);
  return tests;
}

/**
 * `matchesAudience` as a MongoDB filter over the devices read model, for
 * readers of the store (dry-run counts, explain). A device-id target also
 * carries `held_tokens`' condition: the device must still hold that token.
 */
export function audienceFilter(projectId: string, audience: Audience, zones?: ZoneFilter): Filter<DeviceDocument> {
  const anyOf: Array<Filter<DeviceDocument>> = [];
  const held = Object.entries(audience.held_tokens ?? {});
  const plainIds = audience.device_ids.filter((id) => audience.held_tokens?.[id] === undefined);
  if (plainIds.length > 0) anyOf.push({ _id: { $in: plainIds } });
  for (const [id, token] of held) anyOf.push({ _id: id, token });
  if (audience.tokens.length > 0) anyOf.push({ token: { $in: [...audience.tokens] } });
  if (audience.topic_ids.length > 0) anyOf.push({ topics: { $in: [...audience.topic_ids] } });
  if (audience.external_ids.length > 0) anyOf.push({ external_id: { $in: [...audience.external_ids] } });
  for (const filter of audience.metadata) {
    const pairs: Record<string, string> = {};
    for (const [key, value] of Object.entries(filter)) pairs[`metadata.${key}`] = value;
    // An empty metadata filter names every device, as the predicate says (every pair of nothing holds).
    anyOf.push(pairs);
  }
  for (const condition of audience.expressions ?? []) anyOf.push(conditionFilter(condition));
  const base: Filter<DeviceDocument> = { project_id: projectId, status: 'active' };
  // An audience that names nothing matches nothing (an empty $or is invalid).
  if (anyOf.length === 0) return { ...base, ...NONE };
  const clauses: Array<Filter<DeviceDocument>> = [{ $or: anyOf }];
  if (zones !== undefined) {
    const zone: Filter<DeviceDocument> = { timezone: { $in: [...zones.zones] } };
    clauses.push(zones.includeUnset ? { $or: [zone, { timezone: { $exists: false } }] } : zone);
  }
  return { ...base, $and: clauses };
}

/** The project's live topics among these ids and names: what a reader of the topics read model resolves target strings with. */
export function liveTopicsFilter(projectId: string, idsOrNames: readonly string[]): Filter<TopicDocument> {
  return { project_id: projectId, ...LIVE_TOPIC, $or: [{ _id: { $in: [...idsOrNames] } }, { name: { $in: [...idsOrNames] } }] };
}
