import type { ResolvedAudience } from '@herald/events';
import { explainCondition } from './explain-condition.ts';
import { AUDIENCE_CLAUSES, inZones, matchesAudience, type Audience, type AudienceClauseKind, type AudienceDevice, type ZoneFilter } from './predicate.ts';

/** Why one clause of the audience did or did not name the device. */
export interface ClauseVerdict {
  /** A plain target's kind, or `expression` for each target expression (its detail names the part that failed). */
  clause: AudienceClauseKind | 'expression';
  matched: boolean;
  /** What the clause asked and what the device had, for a person. */
  detail: string;
}

/** Which parts of `matchesAudience` failed; `matches` is always `matchesAudience`'s answer. */
export interface AudienceVerdict {
  matches: boolean;
  /** Failures of the gate before the targets, in predicate order: `project`, `status`, `zone`. */
  failed: Array<'project' | 'status' | 'zone'>;
  /** Every clause present in the audience, named or not (none named: "not matched by any target"). */
  clauses: ClauseVerdict[];
}

const list = (values: readonly string[]) => values.map((value) => JSON.stringify(value)).join(', ');

function metadataDetail(device: AudienceDevice, filter: Readonly<Record<string, string>>): string {
  const asked = JSON.stringify(filter);
  for (const [key, value] of Object.entries(filter)) {
    const has = device.metadata[key];
    if (has === undefined) return `metadata ${asked}: key "${key}" is not set`;
    if (has !== value) return `metadata ${asked}: key "${key}" is ${JSON.stringify(has)}, not ${JSON.stringify(value)}`;
  }
  return `metadata ${asked}: every pair matches`;
}

/** What a clause asked of this device, whether or not it named it (only called for a clause present in the audience). */
function detailOf(kind: AudienceClauseKind, device: AudienceDevice, audience: ResolvedAudience, matched: boolean, topicName: (id: string) => string): string {
  switch (kind) {
    case 'held_token': {
      const held = audience.held_tokens?.[device._id];
      if (held === undefined) return 'token (refreshed): the device is not one of the token holders the send named';
      return matched ? 'token (refreshed): the device still holds the targeted token' : 'token (refreshed): the device no longer holds the targeted token';
    }
    case 'device_id':
      return matched ? `device_id: ${JSON.stringify(device._id)} is targeted` : `device_id: targets ${list(audience.device_ids)}, not this device`;
    case 'token':
      return matched ? 'token: the device holds a targeted token' : `token: the device's token is not among the ${audience.tokens.length} targeted`;
    case 'topic': {
      const shared = device.topics.filter((topic) => audience.topic_ids.includes(topic));
      if (matched) return `topic: subscribed to ${list(shared.map(topicName))}`;
      return `topic: not subscribed to ${list(audience.topic_ids.map(topicName))} (subscribed to ${device.topics.length === 0 ? 'no topic' : list(device.topics.map(topicName))})`;
    }
    case 'external_id':
      if (matched) return `external_id: linked to user ${JSON.stringify(device.external_id)}`;
      return `external_id: targets ${list(audience.external_ids)}; the device ${device.external_id === undefined ? 'belongs to no user' : `belongs to ${JSON.stringify(device.external_id)}`}`;
    case 'metadata':
      return audience.metadata.map((filter) => metadataDetail(device, filter)).join('; ');
  }
}

/**
 * `matchesAudience` with its reasons: the same clauses (AUDIENCE_CLAUSES)
 * decide, and each clause present in the audience says what it asked and
 * what the device had. Explain answers "not matched by any target" with it.
 * `topicName` names a topic id for a person (default: the id).
 */
export function explainAudience(device: AudienceDevice, projectId: string, audience: Audience, zones?: ZoneFilter, topicName: (id: string) => string = (id) => id): AudienceVerdict {
  const failed: AudienceVerdict['failed'] = [];
  if (device.project_id !== projectId) failed.push('project');
  if (device.status !== 'active') failed.push('status');
  if (!inZones(device, zones)) failed.push('zone');
  const clauses: ClauseVerdict[] = AUDIENCE_CLAUSES.filter((clause) => clause.present(audience)).map((clause): ClauseVerdict => {
    const matched = clause.test(device, audience);
    return { clause: clause.kind, matched, detail: detailOf(clause.kind, device, audience, matched, topicName) };
  });
  for (const condition of audience.expressions ?? []) {
    const { matched, reason } = explainCondition(condition, device, topicName);
    clauses.push({ clause: 'expression', matched, detail: `expression: ${reason}` });
  }
  return { matches: matchesAudience(device, projectId, audience, zones), failed, clauses };
}
