import type { AudienceCondition, ResolvedAudience } from '@herald/events';
import type { AudienceDevice } from './audience-device.ts';
import { compileCondition, type DevicePredicate } from './condition.ts';

export type { AudienceDevice } from './audience-device.ts';

/**
 * A send's audience: the union of its plain targets (`ResolvedAudience`,
 * checked by lookup keys and lists: the fast path every send had before
 * expressions) and of its expressions, each a resolved condition
 * (condition.ts). A device is named when either names it.
 */
export type Audience = ResolvedAudience & { expressions?: AudienceCondition[] | undefined };

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

/** The kinds of target clause a resolved audience holds (a device is named when any clause names it). */
export type AudienceClauseKind = 'held_token' | 'device_id' | 'token' | 'topic' | 'external_id' | 'metadata';

/** One clause of the union: whether it names the device (`test`, the predicate's hot path) and which of its parts are present. */
interface AudienceClause {
  kind: AudienceClauseKind;
  present(audience: ResolvedAudience): boolean;
  test(device: AudienceDevice, audience: ResolvedAudience): boolean;
}

export function metadataMatches(device: Pick<AudienceDevice, 'metadata'>, filter: Readonly<Record<string, string>>): boolean {
  return Object.entries(filter).every(([key, value]) => device.metadata[key] === value);
}

/** The union's clauses, in the order `namedBy` tries them; `explainAudience` reports on the same ones. */
export const AUDIENCE_CLAUSES: readonly AudienceClause[] = [
  {
    kind: 'held_token',
    present: (audience) => Object.keys(audience.held_tokens ?? {}).length > 0,
    test: (device, audience) => {
      const heldToken = audience.held_tokens?.[device._id];
      return heldToken !== undefined && device.token === heldToken;
    },
  },
  { kind: 'device_id', present: (audience) => audience.device_ids.length > 0, test: (device, audience) => audience.device_ids.includes(device._id) },
  { kind: 'token', present: (audience) => audience.tokens.length > 0, test: (device, audience) => audience.tokens.includes(device.token) },
  {
    kind: 'topic',
    present: (audience) => audience.topic_ids.length > 0,
    test: (device, audience) => device.topics.some((topicId) => audience.topic_ids.includes(topicId)),
  },
  {
    kind: 'external_id',
    present: (audience) => audience.external_ids.length > 0,
    test: (device, audience) => device.external_id !== undefined && audience.external_ids.includes(device.external_id),
  },
  {
    kind: 'metadata',
    present: (audience) => audience.metadata.length > 0,
    test: (device, audience) => audience.metadata.some((filter) => metadataMatches(device, filter)),
  },
];

/** Whether a device is named by any target of the audience, whatever its status. */
export function namedBy(device: AudienceDevice, audience: Audience): boolean {
  return AUDIENCE_CLAUSES.some((clause) => clause.test(device, audience)) || (audience.expressions?.some((condition) => compileCondition(condition)(device)) ?? false);
}

/**
 * The audience predicate compiled once for many devices (a fan-out step, a
 * count): the expressions become closures here, not per device. Decides as
 * `matchesAudience` does; plain audiences keep the union's clauses alone.
 */
export function compileAudience(projectId: string, audience: Audience, zones?: ZoneFilter): DevicePredicate {
  const expressions = (audience.expressions ?? []).map(compileCondition);
  const plain = AUDIENCE_CLAUSES.filter((clause) => clause.present(audience));
  return (device) =>
    device.project_id === projectId &&
    device.status === 'active' &&
    inZones(device, zones) &&
    (plain.some((clause) => clause.test(device, audience)) || expressions.some((test) => test(device)));
}

/**
 * The audience predicate: an active device of the project, in the slot's
 * zones, named by a target (a plain one or an expression). The delivery index and every reader of the
 * devices read model (dry runs, explain) decide with this function or with
 * its MongoDB twin `audienceFilter`, which a property test holds equal;
 * `explainAudience` (explain-audience.ts) gives the same answer with reasons.
 */
export function matchesAudience(device: AudienceDevice, projectId: string, audience: Audience, zones?: ZoneFilter): boolean {
  return device.project_id === projectId && device.status === 'active' && inZones(device, zones) && namedBy(device, audience);
}
