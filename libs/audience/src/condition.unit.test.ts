import { describe, expect, it } from 'vitest';
import { topicIdFor, type AudienceCondition } from '@herald/events';
import { seededRandom } from '@herald/testing/seeded-random';
import { compileCondition, evaluateCondition, isExpression, MAX_SEGMENT_NESTING, resolveCondition, segmentLookupOf, segmentReferences } from './condition.ts';
import { explainCondition } from './explain-condition.ts';
import { canonicalLocale, localeMatches } from './locale.ts';
import { compileAudience, matchesAudience, type Audience, type AudienceDevice } from './predicate.ts';
import { randomCondition, shrinkCondition, type ConditionVocabulary } from './random-condition.ts';
import { resolveAudience, topicLookupOf } from './targets.ts';

const promotions = topicIdFor('p1', 'promotions');
const device: AudienceDevice = { _id: 'd1', project_id: 'p1', status: 'active', token: 't1', platform: 'ios', topics: [promotions], metadata: { country: 'FR', plan: 'free' }, external_id: 'u1', timezone: 'Europe/Paris', locale: 'fr-CA' };
const none: Audience = { topic_ids: [], device_ids: [], tokens: [], external_ids: [], metadata: [] };

describe('locales', () => {
  it('are canonical, and a target matches its tag and the tags under it', () => {
    expect(canonicalLocale('fr-ca')).toBe('fr-CA');
    expect(canonicalLocale('fr_CA')).toBeUndefined();
    expect(localeMatches('fr-CA', 'fr')).toBe(true);
    expect(localeMatches('fr', 'fr')).toBe(true);
    expect(localeMatches('fr', 'fr-CA')).toBe(false);
    expect(localeMatches('fry', 'fr')).toBe(false);
    expect(localeMatches(undefined, 'fr')).toBe(false);
  });
});

describe('conditions', () => {
  const topics = topicLookupOf([{ _id: promotions, project_id: 'p1', name: 'promotions' }]);

  it('resolves topic names, canonical locales, and a topic that does not exist to nothing', () => {
    expect(resolveCondition('p1', { and: [{ topic: 'promotions' }, 'promotions', { not: { locale: 'FR' } }, { topic: 'gone' }] }, topics)).toEqual({
      and: [{ topic_id: promotions }, { topic_id: promotions }, { not: { locale: 'fr' } }, { or: [] }],
    });
  });

  it('keeps plain targets on the union, expressions beside it', () => {
    expect(isExpression({ metadata: { plan: 'pro' } })).toBe(false);
    expect(isExpression({ metadata: { plan: { ne: 'pro' } } })).toBe(true);
    const audience = resolveAudience('p1', ['promotions', { platform: 'ios' }, { metadata: { plan: 'pro' } }], topics);
    expect(audience).toEqual({ topic_ids: [promotions], device_ids: [], tokens: [], external_ids: [], metadata: [{ plan: 'pro' }], expressions: [{ platform: 'ios' }] });
    expect(resolveAudience('p1', ['promotions'], topics)).not.toHaveProperty('expressions');
  });

  it('resolves a segment from the versions the send pinned (by id or name), nested, and nothing for one it did not pin', () => {
    const segments = segmentLookupOf([
      { id: 'seg-1', name: 'us', version: 2, filter: { metadata: { country: 'US' } } },
      { id: 'seg-2', name: 'us-promos', version: 1, filter: { and: [{ segment: 'us' }, 'promotions'] } },
      { id: 'seg-3', name: 'loop', version: 1, filter: { not: { segment: 'loop' } } },
    ]);
    expect(resolveCondition('p1', { segment: 'seg-2' }, topics, segments)).toEqual({ and: [{ metadata: { country: 'US' } }, { topic_id: promotions }] });
    expect(resolveCondition('p1', { or: [{ segment: 'us' }, { segment: 'gone' }] }, topics, segments)).toEqual({ or: [{ metadata: { country: 'US' } }, { or: [] }] });
    // A record carrying a cycle anyway (the API refuses them) resolves within the nesting bound.
    let loop = resolveCondition('p1', { segment: 'loop' }, topics, segments);
    for (let depth = 0; depth < MAX_SEGMENT_NESTING; depth += 1) loop = (loop as { not: typeof loop }).not;
    expect(loop).toEqual({ or: [] });
    expect(resolveAudience('p1', [{ segment: 'us' }], topics, segments).expressions).toEqual([{ metadata: { country: 'US' } }]);
    expect(segmentReferences({ and: [{ segment: 'a' }, { not: { or: ['x', { segment: 'b' }] } }] }, 't[0]')).toEqual([
      { ref: 'a', path: 't[0].and[0].segment' },
      { ref: 'b', path: 't[0].and[1].not.or[1].segment' },
    ]);
  });

  it('decides each leaf and operator as documented', () => {
    const cases: Array<[AudienceCondition, boolean]> = [
      [{ and: [{ topic_id: promotions }, { metadata: { country: 'FR' } }] }, true],
      [{ and: [{ topic_id: promotions }, { metadata: { country: 'US' } }] }, false],
      [{ not: { metadata: { opted_out: { exists: true } } } }, true],
      [{ metadata: { plan: { in: ['pro', 'free'] } } }, true],
      [{ metadata: { plan: { ne: 'free' } } }, false],
      [{ metadata: { tier: { ne: 'gold' } } }, true],
      [{ locale: 'fr' }, true],
      [{ locale: 'en' }, false],
      [{ platform: 'android' }, false],
      [{ timezone: 'Europe/Paris' }, true],
      [{ or: [] }, false],
      [{ and: [] }, true],
      [{ or: [{ external_id: 'u2' }, { device_id: 'd1' }] }, true],
    ];
    for (const [condition, expected] of cases) {
      expect(evaluateCondition(condition, device), JSON.stringify(condition)).toBe(expected);
      expect(compileCondition(condition)(device), JSON.stringify(condition)).toBe(expected);
    }
  });

  it('explains which clause a device failed', () => {
    expect(explainCondition({ and: [{ topic_id: promotions }, { metadata: { country: 'US' } }] }, device).reason).toBe('metadata.country is FR, not US');
    expect(explainCondition({ topic_id: topicIdFor('p1', 'news') }, device, () => 'news').reason).toBe('not in topic news');
    expect(explainCondition({ not: { topic_id: promotions } }, device, () => 'promotions')).toEqual({ matched: false, reason: 'excluded: in topic promotions' });
    expect(explainCondition({ or: [{ platform: 'android' }, { locale: 'de' }] }, device).reason).toBe('platform is ios, not android; and locale is fr-CA, not under de');
    expect(explainCondition({ metadata: { opted_out: { exists: false } } }, { ...device, metadata: { opted_out: 'yes' } }).reason).toBe('metadata.opted_out is set (to yes)');
  });

  it('compiles to the same decision as it evaluates, for thousands of random conditions and devices (seeded)', () => {
    const seed = Number(process.env.CONDITION_TEST_SEED ?? Date.now() % 100_000);
    const random = seededRandom(seed);
    const vocabulary: ConditionVocabulary = { topicIds: ['a', 'b', 'c'], deviceIds: ['d0', 'd1', 'd2'], tokens: ['t0', 't1'], externalIds: ['u0', 'u1'], keys: ['k0', 'k1'], values: ['x', 'y'], platforms: ['ios', 'android', 'web'], locales: ['fr', 'fr-CA', 'en'], zones: ['Europe/Paris', 'Asia/Tokyo'] };
    const devices: AudienceDevice[] = Array.from({ length: 40 }, (_, n) => ({
      _id: `d${n % 4}`,
      project_id: 'p1',
      status: random() < 0.8 ? 'active' : 'inactive',
      token: `t${n % 3}`,
      platform: vocabulary.platforms[n % 3],
      topics: vocabulary.topicIds.filter(() => random() < 0.4),
      metadata: Object.fromEntries(vocabulary.keys.filter(() => random() < 0.6).map((key) => [key, random() < 0.5 ? 'x' : 'y'])),
      ...(random() < 0.5 ? { external_id: `u${n % 3}` } : {}),
      ...(random() < 0.7 ? { locale: vocabulary.locales[n % 3] } : {}),
      ...(random() < 0.7 ? { timezone: vocabulary.zones[n % 2] } : {}),
    }));
    for (let round = 0; round < 2_000; round += 1) {
      const condition = randomCondition(random, vocabulary);
      const audience: Audience = { ...none, expressions: [condition] };
      const compiled = compileAudience('p1', audience);
      const differs = (candidate: AudienceCondition) => devices.some((each) => compileCondition(candidate)(each) !== evaluateCondition(candidate, each));
      if (differs(condition)) expect.fail(`seed ${seed}: compiled and evaluated differ for ${JSON.stringify(shrinkCondition(condition, differs))}`);
      for (const each of devices) {
        expect(compiled(each)).toBe(matchesAudience(each, 'p1', audience));
        expect(explainCondition(condition, each).matched).toBe(evaluateCondition(condition, each));
      }
    }
    // Thousands of cases: seconds when the machine is busy.
  }, 120_000);
});
