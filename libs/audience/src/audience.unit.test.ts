import { describe, expect, it } from 'vitest';
import { audienceFilter, audiencePage, matchesAudience, resolveAudience, splitTargets, type AudienceFields } from './audience.ts';

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
      externalIds: [],
    });
  });
});

describe('audienceFilter', () => {
  it('selects active devices matching any target', () => {
    const audience = resolveAudience('p', splitTargets(['news', 'd1', { metadata: { plan: 'pro', lang: 'nb' } }]), topics);
    expect(audienceFilter(audience, { activeOnly: true })).toEqual({
      project_id: 'p',
      status: 'active',
      $or: [{ topics: 'topic-news' }, { _id: 'd1' }, { token: 'd1' }, { 'metadata.plan': 'pro', 'metadata.lang': 'nb' }],
    });
  });

  it('puts a single target at the top level, as equality when it names one value (what FerretDB on PostgreSQL pushes down)', () => {
    expect(audienceFilter(resolveAudience('p', splitTargets(['news']), topics), { activeOnly: false })).toEqual({ project_id: 'p', topics: 'topic-news' });
    expect(audienceFilter(resolveAudience('p', splitTargets(['news', 'sport']), topics), { activeOnly: false })).toEqual({
      project_id: 'p',
      topics: { $in: ['topic-news', 'topic-sport'] },
    });
    expect(audienceFilter(resolveAudience('p', splitTargets([{ metadata: { plan: 'pro' } }]), topics), { activeOnly: true })).toEqual({
      project_id: 'p',
      status: 'active',
      'metadata.plan': 'pro',
    });
  });

  it("reaches a user's devices by external id", () => {
    const audience = resolveAudience('p', splitTargets([{ external_id: 'u-1' }, { external_id: 'u-2' }, { external_id: 'u-1' }]), []);
    expect(audienceFilter(audience, { activeOnly: true })).toEqual({ project_id: 'p', status: 'active', external_id: { $in: ['u-1', 'u-2'] } });
  });

  it('narrows to the time zones of a local-time slot, with or without unzoned devices', () => {
    const audience = resolveAudience('p', splitTargets(['news']), topics);
    expect(audienceFilter(audience, { activeOnly: true, zones: { zones: ['Asia/Tokyo'], includeUnset: false } })).toEqual({
      project_id: 'p',
      status: 'active',
      timezone: { $in: ['Asia/Tokyo'] },
      topics: 'topic-news',
    });
    expect(audienceFilter(audience, { activeOnly: true, zones: { zones: ['UTC'], includeUnset: true } })).toEqual({
      project_id: 'p',
      status: 'active',
      $and: [{ topics: 'topic-news' }, { $or: [{ timezone: { $in: ['UTC'] } }, { timezone: { $exists: false } }] }],
    });
  });

  it('resumes past a device id', () => {
    const audience = resolveAudience('p', splitTargets(['news']), topics);
    expect(audienceFilter(audience, { activeOnly: true, afterDeviceId: 'd7' })).toEqual({
      project_id: 'p',
      status: 'active',
      _id: { $gt: 'd7' },
      topics: 'topic-news',
    });
  });

  it('matches nothing for an audience that names nothing', () => {
    expect(audienceFilter(resolveAudience('p', splitTargets([]), []), { activeOnly: false })).toEqual({ project_id: 'p', _id: { $in: [] } });
  });
});

describe('audiencePage', () => {
  it('reads active devices past a key, in id order, bounded', () => {
    const audience = resolveAudience('p', splitTargets(['news']), topics);
    expect(audiencePage(audience, 'd7', 100)).toEqual({
      filter: { project_id: 'p', status: 'active', _id: { $gt: 'd7' }, topics: 'topic-news' },
      sort: { _id: 1 },
      limit: 100,
    });
    expect(audiencePage(audience, undefined, 5).filter).not.toHaveProperty('_id');
  });
});

describe('matchesAudience', () => {
  const device: AudienceFields = { _id: 'd1', project_id: 'p', status: 'active', topics: ['topic-news'], token: 'tok-1', metadata: { plan: 'pro' }, timezone: 'Europe/Oslo' };
  const audienceOf = (targets: Parameters<typeof splitTargets>[0]) => resolveAudience('p', splitTargets(targets), topics);

  it('admits an active device of the project that any target names', () => {
    for (const targets of [['news'], ['d1'], ['tok-1'], [{ metadata: { plan: 'pro' } }]] as const) expect(matchesAudience(device, audienceOf([...targets])), JSON.stringify(targets)).toBe(true);
    expect(matchesAudience({ ...device, external_id: 'u1' }, audienceOf([{ external_id: 'u1' }]))).toBe(true);
  });

  it('turns away inactive devices, other projects, unnamed devices and other zones', () => {
    expect(matchesAudience({ ...device, status: 'inactive' }, audienceOf(['news']))).toBe(false);
    expect(matchesAudience({ ...device, project_id: 'q' }, audienceOf(['news']))).toBe(false);
    expect(matchesAudience(device, audienceOf(['sport', { metadata: { plan: 'pro', lang: 'nb' } }]))).toBe(false);
    expect(matchesAudience(device, audienceOf(['news']), { zones: ['Asia/Tokyo'], includeUnset: true })).toBe(false);
    const { timezone: _none, ...unzoned } = device;
    expect(matchesAudience(unzoned, audienceOf(['news']), { zones: ['Asia/Tokyo'], includeUnset: true })).toBe(true);
    expect(matchesAudience(unzoned, audienceOf(['news']), { zones: ['Asia/Tokyo'], includeUnset: false })).toBe(false);
  });
});
