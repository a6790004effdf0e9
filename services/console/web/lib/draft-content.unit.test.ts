import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, requestOf } from './draft.ts';
import { defaultDraftName, formOf, formOfContent } from './draft-content.ts';

describe('a sent request back into the composer (duplicate into a draft)', () => {
  it('gives a form whose request is the one sent, schedule aside', () => {
    const sent = {
      title: 'Sale',
      body: 'Half off',
      targets: ['promotions', { topic: 'news' }, { device_id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f' }, { token: 'tok-1' }, { external_id: 'user-7' }, { metadata: { country: 'US' } }],
      data: { campaign: 'winter' },
      badge: 3,
      rate_per_minute: 600,
      max_duration: 3600,
      priority_lane: 'campaign' as const,
      send_at: '2026-12-24T09:00:00Z',
    };
    const form = formOf(sent);
    expect(form).toMatchObject({ topics: ['promotions', 'news'], devices: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f\ntok-1', externalIds: 'user-7', expression: '{"metadata":{"country":"US"}}', max_duration: '60', schedule: 'now' });
    const { request, problems } = requestOf(form);
    expect(problems).toEqual({});
    expect(request).toEqual({
      title: 'Sale',
      body: 'Half off',
      targets: [{ topic: 'promotions' }, { topic: 'news' }, { device_id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f' }, { token: 'tok-1' }, { external_id: 'user-7' }, { metadata: { country: 'US' } }],
      data: { campaign: 'winter' },
      badge: 3,
      rate_per_minute: 600,
      max_duration: 3600,
      priority_lane: 'campaign',
    });
  });

  it('ORs several targets the form has no section for into one expression', () => {
    const form = formOf({ title: 't', body: 'b', targets: [{ metadata: { a: '1' } }, { segment: 'vip' }] });
    expect(JSON.parse(form.expression)).toEqual({ or: [{ metadata: { a: '1' } }, { segment: 'vip' }] });
  });
});

describe('a stored draft back into the composer', () => {
  it('prefers the form as typed, half-typed values included', () => {
    const form = { ...EMPTY_DRAFT, title: 'Hi', badge: 'three' };
    expect(formOfContent({ notification: { title: 'Hi', targets: [] }, form })).toEqual(form);
  });

  it('derives the form from the request alone, and is empty for content it cannot read', () => {
    expect(formOfContent({ notification: { title: 'Only', body: 'request', targets: ['news'] } })).toMatchObject({ title: 'Only', topics: ['news'] });
    expect(formOfContent('nonsense')).toEqual(EMPTY_DRAFT);
    expect(formOfContent({ other: 1 })).toEqual(EMPTY_DRAFT);
  });

  it('is named by its title until someone names it', () => {
    expect(defaultDraftName({ ...EMPTY_DRAFT, title: '  Winter sale ' })).toBe('Winter sale');
    expect(defaultDraftName(EMPTY_DRAFT)).toBe('Untitled draft');
  });
});
