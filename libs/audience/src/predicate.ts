import type { ResolvedAudience } from '@herald/events';

/** The fields of a device the audience predicate reads. */
export interface AudienceDevice {
  _id: string;
  project_id: string;
  status: 'active' | 'inactive';
  token: string;
  topics: readonly string[];
  metadata: Readonly<Record<string, string>>;
  external_id?: string | undefined;
  timezone?: string | undefined;
}

/** One slot of a local-time send: devices in these zones, and with `includeUnset` those without a zone. */
export interface ZoneFilter {
  zones: readonly string[];
  includeUnset: boolean;
}

export function inZones(device: Pick<AudienceDevice, 'timezone'>, zones: ZoneFilter | undefined): boolean {
  if (zones === undefined) return true;
  if (device.timezone === undefined) return zones.includeUnset;
  return zones.zones.includes(device.timezone);
}

/** Whether a device is named by any target of the audience, whatever its status. */
export function namedBy(device: AudienceDevice, audience: ResolvedAudience): boolean {
  const heldToken = audience.held_tokens?.[device._id];
  if (heldToken !== undefined && device.token === heldToken) return true;
  return (
    audience.device_ids.includes(device._id) ||
    audience.tokens.includes(device.token) ||
    device.topics.some((topicId) => audience.topic_ids.includes(topicId)) ||
    (device.external_id !== undefined && audience.external_ids.includes(device.external_id)) ||
    audience.metadata.some((filter) => Object.entries(filter).every(([key, value]) => device.metadata[key] === value))
  );
}

/**
 * The audience predicate: an active device of the project, in the slot's
 * zones, named by a target. The delivery index and every reader of the
 * devices read model (dry runs, explain) decide with this function or with
 * its MongoDB twin `audienceFilter`, which a property test holds equal.
 */
export function matchesAudience(device: AudienceDevice, projectId: string, audience: ResolvedAudience, zones?: ZoneFilter): boolean {
  return device.project_id === projectId && device.status === 'active' && inZones(device, zones) && namedBy(device, audience);
}
