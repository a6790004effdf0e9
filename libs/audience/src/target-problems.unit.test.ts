import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '@herald/events';
import { EXPRESSION_LIMITS, targetProblems } from './target-problems.ts';

const nested = (depth: number): unknown => (depth === 0 ? { topic: 'news' } : { not: nested(depth - 1) });

describe('targetProblems', () => {
  it('accepts plain targets, typed leaves and expressions of every kind', () => {
    expect(
      targetProblems([
        'news',
        { topic: 'news' },
        { metadata: { plan: 'pro', 'my key': 'v' } },
        { external_id: 'u' },
        { and: [{ topic: 'promotions' }, { metadata: { country: 'US' } }, { not: { metadata: { opted_out: { exists: true } } } }] },
        { or: [{ platform: 'ios' }, { locale: 'fr' }, { timezone: 'Europe/Paris' }, { metadata: { tier: { in: ['gold', 'silver'] }, plan: { ne: 'free' } } }] },
        { not: 'vip' },
        { and: ['a', { device_id: 'd' }, { token: 't' }] },
      ]),
    ).toEqual([]);
    expect(targetProblems(undefined)).toEqual([]);
    expect(targetProblems('x')).toEqual([]);
  });

  it('names the path of every bad node', () => {
    expect(
      targetProblems([
        'news',
        { and: [{ topic: 'a' }, { topic: 'b' }, { not: null }] },
        { or: [] },
        { and: [{ colour: 'red' }] },
        { not: { topic: 5 } },
        { topic: 'a', device_id: 'b' },
        {},
        { metadata: { plan: { gt: '3' } } },
        { metadata: { plan: { in: [] }, tier: { exists: 'yes' }, 'a.b': 'x', 'plan ': 'y' } },
        { platform: 'windows' },
        { locale: 'not a locale!' },
        { timezone: 'Mars/Olympus' },
        { and: 'news' },
        { not: [] },
      ]),
    ).toEqual([
      'notification.targets[1].and[2].not: must hold a target, not nothing',
      'notification.targets[2].or: must hold at least one target',
      'notification.targets[3].and[0]: unknown key "colour" (a target has one of and, or, not, topic, device_id, token, external_id, metadata, platform, locale, timezone, segment)',
      'notification.targets[4].not.topic: must be a string, not number',
      'notification.targets[5]: a target has exactly one key of and, or, not, topic, device_id, token, external_id, metadata, platform, locale, timezone, segment, not topic and device_id',
      'notification.targets[6]: a target has exactly one key of and, or, not, topic, device_id, token, external_id, metadata, platform, locale, timezone, segment, not none',
      'notification.targets[7].metadata."plan": must be a string (equality) or one of {"in": [...]}, {"exists": true|false}, {"ne": "..."}',
      'notification.targets[8].metadata."plan".in: must be a list of 1 to 100 strings',
      'notification.targets[8].metadata."tier".exists: must be true or false',
      'notification.targets[8].metadata."a.b": a key is 1–64 characters, without \'.\' or control characters, not starting with \'$\'',
      'notification.targets[8].metadata."plan ": a key must not start or end with white space',
      `notification.targets[9].platform: "windows" is not a platform (${PLATFORMS.join(', ')})`,
      'notification.targets[10].locale: "not a locale!" is not a BCP 47 language tag (e.g. fr, fr-CA)',
      'notification.targets[11].timezone: "Mars/Olympus" is not an IANA time zone name (e.g. Europe/Paris)',
      'notification.targets[12].and: must be a list of targets',
      'notification.targets[13].not: must be a target (a string or an object), not a list',
    ]);
  });

  it('keeps expressions within the documented limits, naming where they are passed', () => {
    expect(targetProblems([nested(EXPRESSION_LIMITS.depth)])).toEqual([]);
    expect(targetProblems([nested(EXPRESSION_LIMITS.depth + 1)])).toEqual([`notification.targets[0]${'.not'.repeat(EXPRESSION_LIMITS.depth + 1)}: nested deeper than ${EXPRESSION_LIMITS.depth} operators`]);
    const wide = { or: Array.from({ length: EXPRESSION_LIMITS.list + 1 }, (_, n) => `t${n}`) };
    expect(targetProblems([wide])).toEqual([`notification.targets[0].or: holds ${EXPRESSION_LIMITS.list + 1} targets, at most ${EXPRESSION_LIMITS.list}`]);
    const big = { and: Array.from({ length: 3 }, () => ({ or: Array.from({ length: 99 }, (_, n) => `t${n}`) })) };
    expect(targetProblems([big])).toEqual([`notification.targets[0]: has 301 nodes, at most ${EXPRESSION_LIMITS.nodes}`]);
    const many = Array.from({ length: 11 }, () => ({ or: Array.from({ length: 99 }, (_, n) => `t${n}`) }));
    expect(targetProblems(many)).toEqual([`notification.targets: the targets have 1100 expression nodes together, at most ${EXPRESSION_LIMITS.totalNodes}`]);
    const values = { metadata: { tier: { in: Array.from({ length: EXPRESSION_LIMITS.list + 1 }, (_, n) => `v${n}`) } } };
    expect(targetProblems([values], 'filter')).toEqual([`filter[0].metadata."tier".in: has ${EXPRESSION_LIMITS.list + 1} values, at most ${EXPRESSION_LIMITS.list}`]);
  });
});
