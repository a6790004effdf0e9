import type { Target } from '@herald/events';
import type { Filter } from '@herald/mongo';
import type { DeviceDocument, TopicDocument } from '@herald/projections';

/** A notification's targets, split by kind. */
export interface TargetSpec {
  names: string[];
  metadataFilters: Array<Record<string, string>>;
  /** Users: every active device registered with one of these external ids. */
  externalIds: string[];
}

export function splitTargets(targets: readonly Target[]): TargetSpec {
  const names: string[] = [];
  const metadataFilters: Array<Record<string, string>> = [];
  const externalIds: string[] = [];
  for (const target of targets) {
    if (typeof target === 'string') names.push(target);
    else if ('metadata' in target) metadataFilters.push(target.metadata);
    else externalIds.push(target.external_id);
  }
  return { names: [...new Set(names)], metadataFilters, externalIds: [...new Set(externalIds)] };
}

/**
 * The audience once topics are known. Each target string is tried, within
 * the project, as a topic id, then a topic name; strings that name no topic
 * are tried as a device id, then a device token.
 */
export interface Audience {
  projectId: string;
  topicIds: string[];
  deviceRefs: string[];
  metadataFilters: Array<Record<string, string>>;
  externalIds: string[];
}

/** Which topics the target strings name: the query, and then the pure split. */
export function topicLookupFilter(projectId: string, spec: TargetSpec): Filter<TopicDocument> {
  // Deleted topics stay in the read model as tombstones (projections LIVE_TOPIC): they resolve to nothing.
  return { project_id: projectId, deleted_at: { $exists: false }, $or: [{ _id: { $in: spec.names } }, { name: { $in: spec.names } }] };
}

export function resolveAudience(projectId: string, spec: TargetSpec, topics: ReadonlyArray<Pick<TopicDocument, '_id' | 'name'>>): Audience {
  const topicIds = new Set<string>();
  const named = new Set<string>();
  for (const topic of topics) {
    if (spec.names.includes(topic._id)) {
      topicIds.add(topic._id);
      named.add(topic._id);
    }
    if (spec.names.includes(topic.name)) {
      topicIds.add(topic._id);
      named.add(topic.name);
    }
  }
  return {
    projectId,
    topicIds: [...topicIds],
    deviceRefs: spec.names.filter((name) => !named.has(name)),
    metadataFilters: spec.metadataFilters,
    externalIds: spec.externalIds,
  };
}

/** One slot of a local-time send: devices in these zones, and with `includeUnset` those without a zone. */
export interface ZoneFilter {
  zones: readonly string[];
  includeUnset: boolean;
}

/**
 * One value as plain equality, several as `$in`: the same match (on an
 * array field, equality is membership), but FerretDB on PostgreSQL pushes
 * top-level equality down to the database and `$in` not.
 */
function equalsAnyOf(values: readonly string[]): string | { $in: string[] } {
  return values.length === 1 ? values[0]! : { $in: [...values] };
}

/**
 * Devices of the audience; with `activeOnly`, only those that can receive
 * pushes; with `afterDeviceId`, only those past that id (a fan-out resuming
 * where it stopped). A single target joins the filter's top level rather
 * than a one-branch `$or`, for the same pushdown (a 10-device topic is then
 * found by the database instead of by decoding every device of the project).
 */
export function audienceFilter(audience: Audience, options: { activeOnly: boolean; afterDeviceId?: string | undefined; zones?: ZoneFilter | undefined }): Filter<DeviceDocument> {
  const anyOf: Array<Filter<DeviceDocument>> = [];
  if (audience.topicIds.length > 0) anyOf.push({ topics: equalsAnyOf(audience.topicIds) });
  if (audience.deviceRefs.length > 0) {
    anyOf.push({ _id: equalsAnyOf(audience.deviceRefs) }, { token: equalsAnyOf(audience.deviceRefs) });
  }
  if (audience.externalIds.length > 0) anyOf.push({ external_id: equalsAnyOf(audience.externalIds) });
  for (const filter of audience.metadataFilters) {
    const pairs: Record<string, string> = {};
    for (const [key, value] of Object.entries(filter)) pairs[`metadata.${key}`] = value;
    anyOf.push(pairs);
  }
  // An audience that names nothing matches nothing (an empty $or is invalid).
  if (anyOf.length === 0) return { project_id: audience.projectId, _id: { $in: [] } };
  const zones = options.zones;
  const base: Filter<DeviceDocument> = {
    project_id: audience.projectId,
    ...(options.activeOnly ? { status: 'active' as const } : {}),
    ...(options.afterDeviceId === undefined ? {} : { _id: { $gt: options.afterDeviceId } }),
    ...(zones !== undefined && !zones.includeUnset ? { timezone: { $in: [...zones.zones] } } : {}),
  };
  const only = anyOf.length === 1 ? anyOf[0]! : undefined;
  const targets = only !== undefined && Object.keys(only).every((key) => !(key in base)) ? only : { $or: anyOf };
  if (zones === undefined || !zones.includeUnset) return { ...base, ...targets };
  return { ...base, $and: [targets, { $or: [{ timezone: { $in: [...zones.zones] } }, { timezone: { $exists: false } }] }] };
}

/**
 * One keyset page of an audience's active devices: ids past `after`, in id
 * order, at most `limit`. Each page is an index range scan (MongoDB with
 * the devices' `_id` order), so memory stays bounded and the first page of
 * a million devices comes back as fast as the last. FerretDB 1.x pushes
 * down neither the range nor the sort: there the fan-out reads a held scan
 * instead (services/delivery, `audience-source.ts`).
 */
export function audiencePage(audience: Audience, after: string | undefined, limit: number, zones?: ZoneFilter): { filter: Filter<DeviceDocument>; sort: { _id: 1 }; limit: number } {
  return { filter: audienceFilter(audience, { activeOnly: true, afterDeviceId: after, zones }), sort: { _id: 1 }, limit };
}

/** The fields `matchesAudience` reads. */
export type AudienceFields = Pick<DeviceDocument, '_id' | 'project_id' | 'status' | 'topics' | 'token' | 'metadata' | 'external_id' | 'timezone'>;

/**
 * The in-memory twin of `audienceFilter(audience, { activeOnly: true, zones })`
 * for one device: for readers that found candidates by `_id` and must still
 * check that each one belongs (a listed member may have left since).
 */
export function matchesAudience(device: AudienceFields, audience: Audience, zones?: ZoneFilter): boolean {
  if (device.project_id !== audience.projectId || device.status !== 'active') return false;
  if (zones !== undefined) {
    const inZone = device.timezone !== undefined && zones.zones.includes(device.timezone);
    if (!inZone && !(zones.includeUnset && device.timezone === undefined)) return false;
  }
  return (
    device.topics.some((topicId) => audience.topicIds.includes(topicId)) ||
    audience.deviceRefs.includes(device._id) ||
    audience.deviceRefs.includes(device.token) ||
    (device.external_id !== undefined && audience.externalIds.includes(device.external_id)) ||
    audience.metadataFilters.some((filter) => Object.entries(filter).every(([key, value]) => device.metadata[key] === value))
  );
}

/** Whether an audience's devices can all be found by `_id`: it names topics and device ids or tokens only, no metadata and no users. */
export function isLookupAudience(audience: Audience): boolean {
  return audience.metadataFilters.length === 0 && audience.externalIds.length === 0 && audience.topicIds.length + audience.deviceRefs.length > 0;
}
