import { describe, expect, it } from 'vitest';
import { audienceFilter, deviceInAudience, resolveAudience, splitTargets } from './audience.ts';

const topics = [
  { _id: 'topic-news', name: 'news' },
  { _id: 'topic-sport', name: 'sport' },
];

describe('resolveAudience', () => {
  it('tries strings as topic id, topic name, then device id or token', () => {
    const spec = splitTargets(['news', 'topic-sport', 'device-1', 'token-9', 'device-1', { metadata: { plan: 'pro' } }]);
    expect(resolveAudience('p', spec, topics)).toEqual({
      projectId: 'p',
      topicIds: ['topic-news', 'topic-sport'],
      deviceRefs: ['device-1', 'token-9'],
      metadataFilters: [{ plan: 'pro' }],
    });
  });
});

describe('audienceFilter', () => {
  it('selects active devices matching any target', () => {
    const audience = resolveAudience('p', splitTargets(['news', 'd1', { metadata: { plan: 'pro', lang: 'nb' } }]), topics);
    expect(audienceFilter(audience, { activeOnly: true })).toEqual({
      project_id: 'p',
      status: 'active',
      $or: [
        { topics: { $in: ['topic-news'] } },
        { _id: { $in: ['d1'] } },
        { token: { $in: ['d1'] } },
        { 'metadata.plan': 'pro', 'metadata.lang': 'nb' },
      ],
    });
  });

  it('matches nothing for an audience that names nothing', () => {
    expect(audienceFilter(resolveAudience('p', splitTargets([]), []), { activeOnly: false })).toEqual({ project_id: 'p', _id: { $in: [] } });
  });
});

describe('deviceInAudience', () => {
  const device = { _id: 'd1', project_id: 'p', token: 't1', topics: ['topic-sport'], metadata: { plan: 'pro', lang: 'en' } };
  const audienceOf = (targets: Parameters<typeof splitTargets>[0], projectId = 'p') => resolveAudience(projectId, splitTargets(targets), topics);

  it.each([
    ['its topic by name', ['sport']],
    ['its id', ['d1']],
    ['its token', ['t1']],
    ['a metadata filter it satisfies', [{ metadata: { plan: 'pro' } }]],
  ])('includes a device targeted by %s', (_label, targets) => {
    expect(deviceInAudience(device, audienceOf(targets as never))).toBe(true);
  });

  it.each([
    ['another topic', ['news']],
    ['a metadata filter it only half satisfies', [{ metadata: { plan: 'pro', lang: 'nb' } }]],
    ['another device', ['d2']],
  ])('excludes a device not targeted: %s', (_label, targets) => {
    expect(deviceInAudience(device, audienceOf(targets as never))).toBe(false);
  });

  it('never includes a device of another project', () => {
    expect(deviceInAudience(device, audienceOf(['d1'], 'other'))).toBe(false);
  });
});
