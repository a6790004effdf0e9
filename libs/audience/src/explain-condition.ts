import type { AudienceCondition, MetadataCondition } from '@herald/events';
import { evaluateCondition } from './condition.ts';
import type { AudienceDevice } from './predicate.ts';

const quote = (value: string) => JSON.stringify(value);

/** Why one metadata key test passed or failed, for a person ("metadata.country is FR, not US"). */
function metadataReason(key: string, value: string | undefined, test: MetadataCondition, passed: boolean): string {
  const field = `metadata.${key}`;
  const has = value === undefined ? `${field} is not set` : `${field} is ${value}`;
  if (typeof test === 'string') return passed ? `${field} is ${test}` : value === undefined ? has : `${has}, not ${test}`;
  if ('in' in test) return passed ? `${has}, one of ${test.in.join(', ')}` : `${has}, not one of ${test.in.join(', ')}`;
  if ('exists' in test) return test.exists ? (passed ? `${field} is set` : has) : passed ? has : `${field} is set (to ${value})`;
  return passed ? (value === undefined ? has : `${has}, not ${test.ne}`) : `${field} is ${test.ne}`;
}

/** A leaf's reason: what it asked and what the device had (the verdict is `passed`). */
function leafReason(condition: Exclude<AudienceCondition, { and: unknown } | { or: unknown } | { not: unknown }>, device: AudienceDevice, passed: boolean, topicName: (id: string) => string): string {
  if ('topic_id' in condition) return `${passed ? 'in' : 'not in'} topic ${topicName(condition.topic_id)}`;
  if ('device_id' in condition) return passed ? `is device ${condition.device_id}` : `is not device ${condition.device_id}`;
  if ('token' in condition) return passed ? 'holds the targeted token' : 'does not hold the targeted token';
  if ('external_id' in condition) return passed ? `belongs to user ${quote(condition.external_id)}` : `belongs to ${device.external_id === undefined ? 'no user' : `user ${quote(device.external_id)}`}, not ${quote(condition.external_id)}`;
  if ('platform' in condition) return passed ? `platform is ${condition.platform}` : `platform is ${device.platform ?? 'unknown'}, not ${condition.platform}`;
  if ('timezone' in condition) return passed ? `timezone is ${condition.timezone}` : `timezone is ${device.timezone ?? 'not set'}, not ${condition.timezone}`;
  if ('locale' in condition) return passed ? `locale ${device.locale} is under ${condition.locale}` : `locale is ${device.locale ?? 'not set'}, not under ${condition.locale}`;
  const entries = Object.entries(condition.metadata);
  if (passed) return entries.map(([key, test]) => metadataReason(key, device.metadata[key], test, true)).join(' and ') || 'metadata: nothing asked';
  // The first key test that failed is the reason.
  for (const [key, test] of entries) {
    const value = device.metadata[key];
    if (!evaluateCondition({ metadata: { [key]: test } }, device)) return metadataReason(key, value, test, false);
  }
  return 'metadata: every key test passes';
}

/**
 * Why a condition did or did not name the device, for a person (pure): a
 * failed `and` names its first failing part, a failed `or` each part, a
 * `not` what its inner condition found. Decides as `evaluateCondition` does.
 */
export function explainCondition(condition: AudienceCondition, device: AudienceDevice, topicName: (id: string) => string = (id) => id): { matched: boolean; reason: string } {
  const matched = evaluateCondition(condition, device);
  if ('and' in condition) {
    if (matched) return { matched, reason: condition.and.map((child) => explainCondition(child, device, topicName).reason).join(' and ') || 'nothing asked' };
    const failed = condition.and.find((child) => !evaluateCondition(child, device))!;
    return { matched, reason: explainCondition(failed, device, topicName).reason };
  }
  if ('or' in condition) {
    if (condition.or.length === 0) return { matched, reason: 'names no device (a topic that does not exist)' };
    if (matched) return { matched, reason: explainCondition(condition.or.find((child) => evaluateCondition(child, device))!, device, topicName).reason };
    return { matched, reason: condition.or.map((child) => explainCondition(child, device, topicName).reason).join('; and ') };
  }
  if ('not' in condition) {
    const inner = explainCondition(condition.not, device, topicName);
    return { matched, reason: inner.matched ? `excluded: ${inner.reason}` : inner.reason };
  }
  return { matched, reason: leafReason(condition, device, matched, topicName) };
}
