import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, problemsByField, requestOf, type Draft, type FieldProblems } from './draft.ts';
import { contentFormOf, contentOf, durationSeconds, EMPTY_CONTENT, newVariant } from './draft-variants.ts';
import { formOf } from './draft-content.ts';

const draft = (patch: Partial<Draft>): Draft => ({ ...EMPTY_DRAFT, topics: ['news'], ...patch });

describe('literal content with localisations', () => {
  it('sends each locale given, leaving out empty fields', () => {
    const { request, problems } = requestOf(draft({ title: 'Sale', body: 'Today', localizations: [{ locale: 'fr', title: 'Soldes', body: '' }, { locale: 'es', title: '', body: 'Hoy' }] }));
    expect(problems).toEqual({});
    expect(request).toMatchObject({ title: 'Sale', body: 'Today', localizations: { fr: { title: 'Soldes' }, es: { body: 'Hoy' } } });
  });

  it('names a bad tag, a locale twice and one with no text', () => {
    const problems: FieldProblems = {};
    contentOf({ ...EMPTY_CONTENT, localizations: [{ locale: 'french!', title: 'x', body: '' }, { locale: 'fr', title: 'a', body: '' }, { locale: 'FR', title: 'b', body: '' }, { locale: 'de', title: ' ', body: '' }] }, problems);
    expect(problems.localizations).toEqual([
      '"french!" is not a locale tag (fr, fr-CA, zh-Hant-TW)',
      'FR is there twice',
      "de: give a title or a body (the send's own fill in the other), or remove the locale",
    ]);
  });

  it('has no localizations key without locales', () => {
    expect(requestOf(draft({ title: 'a', body: 'b' })).request).not.toHaveProperty('localizations');
  });
});

describe('template content', () => {
  it('names the template with its version and passes variables, without title and body', () => {
    const { request, problems } = requestOf(draft({ contentMode: 'template', template: 'order-shipped', templateVersion: '2', variables: '{"order": {"id": "A-1"}}' }));
    expect(problems).toEqual({});
    expect(request).toMatchObject({ template: 'order-shipped@2', variables: { order: { id: 'A-1' } } });
    expect(request).not.toHaveProperty('title');
  });

  it('takes the newest version when none is given, and names what is wrong', () => {
    expect(requestOf(draft({ contentMode: 'template', template: 'x' })).request.template).toBe('x');
    const { problems } = requestOf(draft({ contentMode: 'template', template: '', templateVersion: 'two', variables: '[1]' }));
    expect(problems.template).toEqual(['pick a template']);
    expect(problems.variables).toEqual(['variables must be a JSON object, e.g. {"order": {"id": "A-1042"}}']);
    expect(requestOf(draft({ contentMode: 'template', template: 'x', templateVersion: '0' })).problems.template).toEqual(['version: a whole number from 1 to 1000000']);
  });
});

describe('A/B content', () => {
  const ab = (patch: Partial<Draft>) =>
    draft({
      contentMode: 'ab',
      variants: [
        { ...newVariant('A'), title: 'Sale', body: 'Today only' },
        { ...newVariant('B'), kind: 'template', template: 'flash-sale@3', variables: '{"pct": 20}' },
      ],
      ...patch,
    });

  it('sends variants, holdout and the test with its metric', () => {
    const { request, problems } = requestOf(ab({ holdout_percent: '10', testPercent: '20', decideAfter: 'pt2h', fallback: 'A' }));
    expect(problems).toEqual({});
    expect(request).toMatchObject({
      variants: [{ name: 'A', title: 'Sale', body: 'Today only' }, { name: 'B', template: 'flash-sale@3', variables: { pct: 20 } }],
      holdout_percent: 10,
      test: { percent: 20, decide_after: 'PT2H', metric: 'open_rate' },
      fallback: 'A',
    });
    expect(request).not.toHaveProperty('title');
  });

  it('without a test share there is no test and no fallback', () => {
    const { request, problems } = requestOf(ab({ holdout_percent: '0', fallback: 'A' }));
    expect(problems).toEqual({});
    expect(request).not.toHaveProperty('test');
    expect(request).not.toHaveProperty('fallback');
    expect(request.holdout_percent).toBe(0);
  });

  it('checks the percent ranges, the duration, the names and the count', () => {
    const { problems } = requestOf(
      ab({
        variants: [{ ...newVariant('A'), title: 'x', body: 'y' }],
        holdout_percent: '51',
        testPercent: '0',
        decideAfter: '2 hours',
        fallback: 'C',
      }),
    );
    expect(problems.variants).toEqual(['an A/B test has 2 to 5 variants']);
    expect(problems.holdout_percent).toEqual(['holdout (%): a whole number from 0 to 50']);
    expect(problems.testPercent).toEqual(['test share (%): a whole number from 1 to 100']);
    expect(problems.fallback).toEqual(['C is not one of the variants']);
    expect(requestOf(ab({ testPercent: '100', decideAfter: 'P' })).problems.decideAfter).toHaveLength(1);
    expect(requestOf(ab({ testPercent: '100', decideAfter: 'P1DT12H' })).problems).toEqual({});
    expect(requestOf(ab({ decideAfter: 'PT2H' })).problems.testPercent).toHaveLength(1);
  });

  it('names duplicate or bad names (an empty title is the API\'s to name)', () => {
    const { problems } = requestOf(ab({ variants: [{ ...newVariant('A'), title: 'x', body: 'y' }, { ...newVariant('A'), title: 'x', body: '' }, { ...newVariant('no spaces'), title: 'a', body: 'b' }] }));
    expect(problems.variants).toEqual(['variant 2 (A): the name is taken by another variant', 'variant 3 (no spaces): a name of letters, digits, - or _ (at most 32)']);
  });
});

describe('back from a request', () => {
  it('round-trips each kind of content through the form', () => {
    const requests = [
      { title: 'Sale', body: 'Today', localizations: { fr: { title: 'Soldes', body: 'Aujourd’hui' } }, targets: ['news'] },
      { template: 'order-shipped@4', variables: { order: { id: 'A-1' } }, targets: ['news'] },
      { variants: [{ name: 'A', title: 'a', body: 'b' }, { name: 'B', template: 't', variables: { x: 1 } }], holdout_percent: 10, test: { percent: 50, decide_after: 'PT1H', metric: 'open_rate' as const }, fallback: 'B', targets: ['news'] },
    ];
    for (const request of requests) {
      const again = requestOf({ ...formOf(request), topics: ['news'] }).request;
      expect(again).toEqual({ ...request, targets: [{ topic: 'news' }] });
    }
    expect(contentFormOf({ template: 'plain' })).toMatchObject({ contentMode: 'template', template: 'plain', templateVersion: '' });
    // As GET /api/v1/notifications/{id} shows a template send: the version pinned, its variables inside, title and body the default's source.
    const pinned = { id: 'e167bc86-69fc-5ab4-9d41-65915661c3de', name: 'welcome', version: 2, content: { default: { title: 'Hi {{ name }}', body: 'b' } }, variables: { name: 'Ana' } };
    expect(requestOf({ ...formOf({ title: 'Hi {{ name }}', body: 'b', template: pinned as never, targets: ['news'] }), topics: ['news'] }).request).toEqual({ template: 'welcome@2', variables: { name: 'Ana' }, targets: [{ topic: 'news' }] });
    const variants = contentFormOf({ variants: [{ name: 'A', title: 'a', body: 'b' }, { name: 'B', template: pinned }] }).variants;
    expect(variants[1]).toEqual({ name: 'B', kind: 'template', title: '', body: '', template: 'welcome@2', variables: '{"name":"Ana"}' });
  });
});

describe('the API’s problems', () => {
  it('go to the content field they name', () => {
    expect(
      problemsByField([
        'notification.variables: content.default.body line 1: undefined variable: order',
        'notification.variants[1].title must be a string',
        'notification.test.percent must be ≥ 1',
        'notification.localizations.fr must be an object',
        'notification.holdout_percent must be ≤ 50',
      ]),
    ).toEqual({
      variables: ['notification.variables: content.default.body line 1: undefined variable: order'],
      variants: ['notification.variants[1].title must be a string'],
      testPercent: ['notification.test.percent must be ≥ 1'],
      localizations: ['notification.localizations.fr must be an object'],
      holdout_percent: ['notification.holdout_percent must be ≤ 50'],
    });
  });
});

describe('decide_after in seconds', () => {
  it('reads days, hours, minutes and seconds, nothing else', () => {
    expect(durationSeconds('PT2H')).toBe(7200);
    expect(durationSeconds('p1dt1h1m1s')).toBe(90_061);
    expect(durationSeconds('PT90S')).toBe(90);
    expect(durationSeconds('P')).toBeUndefined();
    expect(durationSeconds('2h')).toBeUndefined();
  });
});
