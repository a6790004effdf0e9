import type { AudienceCondition, MetadataCondition } from '@herald/events';

/*
 * Random conditions and their shrinking, for the property tests that hold
 * the predicate, its MongoDB twin and the delivery index's reads equal
 * (`@herald/audience/random-condition`; not used by services). A failure is
 * reported with the simplest condition that still fails and the seed.
 */

/** What conditions are made of: values that devices of the test hold (and some they do not). */
export interface ConditionVocabulary {
  topicIds: readonly string[];
  deviceIds: readonly string[];
  tokens: readonly string[];
  externalIds: readonly string[];
  keys: readonly string[];
  values: readonly string[];
  platforms: readonly string[];
  locales: readonly string[];
  zones: readonly string[];
}

export type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

function randomMetadataTest(random: Random, vocabulary: ConditionVocabulary): MetadataCondition {
  const roll = random();
  if (roll < 0.4) return pick(random, vocabulary.values);
  if (roll < 0.6) return { in: vocabulary.values.filter(() => random() < 0.4).concat(pick(random, vocabulary.values)) };
  if (roll < 0.8) return { exists: random() < 0.5 };
  return { ne: pick(random, vocabulary.values) };
}

function randomLeaf(random: Random, vocabulary: ConditionVocabulary): AudienceCondition {
  switch (Math.floor(random() * 9)) {
    case 0:
      return { topic_id: pick(random, vocabulary.topicIds) };
    case 1:
      return { device_id: pick(random, vocabulary.deviceIds) };
    case 2:
      return { token: pick(random, vocabulary.tokens) };
    case 3:
      return { external_id: pick(random, vocabulary.externalIds) };
    case 4:
      return { platform: pick(random, vocabulary.platforms) } as AudienceCondition;
    case 5:
      return { locale: pick(random, vocabulary.locales) };
    case 6:
      return { timezone: pick(random, vocabulary.zones) };
    default: {
      const keys = vocabulary.keys.filter(() => random() < 0.35);
      const chosen = keys.length === 0 ? [pick(random, vocabulary.keys)] : keys;
      return { metadata: Object.fromEntries(chosen.map((key) => [key, randomMetadataTest(random, vocabulary)])) };
    }
  }
}

/** A random condition of up to `depth` nested operators, with 1–8 leaves in most. */
export function randomCondition(random: Random, vocabulary: ConditionVocabulary, depth = 3): AudienceCondition {
  const roll = random();
  if (depth === 0 || roll < 0.35) return randomLeaf(random, vocabulary);
  if (roll < 0.5) return { not: randomCondition(random, vocabulary, depth - 1) };
  const children = Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomCondition(random, vocabulary, depth - 1));
  // Now and then an empty `or` (a topic that does not exist resolves to it).
  if (roll > 0.97) return { or: [] };
  return roll < 0.75 ? { and: children } : { or: children };
}

/** Conditions one step simpler than `condition` (each a candidate while shrinking). */
export function simplerConditions(condition: AudienceCondition): AudienceCondition[] {
  if ('not' in condition) return [condition.not, ...simplerConditions(condition.not).map((inner) => ({ not: inner }))];
  if ('and' in condition || 'or' in condition) {
    const kind = 'and' in condition ? 'and' : 'or';
    const children = 'and' in condition ? condition.and : condition.or;
    const out: AudienceCondition[] = [...children];
    children.forEach((_, at) => out.push({ [kind]: children.filter((__, other) => other !== at) } as AudienceCondition));
    children.forEach((child, at) => {
      for (const simpler of simplerConditions(child)) out.push({ [kind]: children.map((each, other) => (other === at ? simpler : each)) } as AudienceCondition);
    });
    return out;
  }
  if ('metadata' in condition) {
    const entries = Object.entries(condition.metadata);
    if (entries.length <= 1) return [];
    return entries.map(([key]) => ({ metadata: Object.fromEntries(entries.filter(([other]) => other !== key)) }));
  }
  return [];
}

/** The simplest condition (by repeated `simplerConditions`) for which `fails` still holds. */
export function shrinkCondition(condition: AudienceCondition, fails: (candidate: AudienceCondition) => boolean): AudienceCondition {
  let current = condition;
  for (let rounds = 0; rounds < 1_000; rounds += 1) {
    const next = simplerConditions(current).find(fails);
    if (next === undefined) return current;
    current = next;
  }
  return current;
}
