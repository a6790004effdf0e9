import type { ResolvedAudience } from '@herald/events';
import type { Filter } from '@herald/mongo';
import { type DeviceDocument, LIVE_TOPIC, type TopicDocument } from '@herald/read-models';
import type { ZoneFilter } from './predicate.ts';

/**
 * `matchesAudience` as a MongoDB filter over the devices read model, for
 * readers of the store (dry-run counts, explain). A device-id target also
 * carries `held_tokens`' condition: the device must still hold that token.
 */
export function audienceFilter(projectId: string, audience: ResolvedAudience, zones?: ZoneFilter): Filter<DeviceDocument> {
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
  const base: Filter<DeviceDocument> = { project_id: projectId, status: 'active' };
  // An audience that names nothing matches nothing (an empty $or is invalid).
  if (anyOf.length === 0) return { ...base, _id: { $in: [] } };
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
