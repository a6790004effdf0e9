import { describe, expect, it } from 'vitest';
import { contentProblems, pinnedSizeProblems, variableProblems, VARIABLES_MAX_BYTES } from './template-send.ts';

describe('contentProblems', () => {
  it('accepts literal content, literal content with localisations, and a template with variables', () => {
    expect(contentProblems({ title: 't', body: 'b' })).toEqual([]);
    expect(contentProblems({ title: 't', body: 'b', localizations: { fr: { title: 'x' }, 'fr-CA': {} } })).toEqual([]);
    expect(contentProblems({ template: 'welcome@2', variables: { code: 1 } })).toEqual([]);
  });

  it('names what is missing or mixed', () => {
    expect(contentProblems({ body: 'b' })).toEqual(['notification.title and notification.body are required unless notification.template is given']);
    expect(contentProblems({ title: 't', body: 'b', variables: {} })).toEqual(['notification.variables needs notification.template']);
    expect(contentProblems({ template: 'x', title: 't', localizations: { fr: {} } })).toEqual([
      'notification: give either template (with variables) or title and body, not both',
      'notification.localizations is for literal content: a template has its own locales',
    ]);
    expect(contentProblems({ title: 't', body: 'b', localizations: { french: {} } })).toEqual(['notification.localizations.french: not a locale tag (`fr`, `fr-CA`)']);
  });
});

describe('variableProblems', () => {
  it('accepts plain data and names keys a store cannot keep, at any depth', () => {
    expect(variableProblems({ order: { id: 1, items: [{ name: 'a' }] } })).toEqual([]);
    expect(variableProblems({ 'a.b': 1, ok: { $where: 1 }, list: [{ '': 2 }] })).toEqual([
      "notification.variables.a.b: a variable name may not be empty, hold '.' or start with '$'",
      "notification.variables.ok.$where: a variable name may not be empty, hold '.' or start with '$'",
      "notification.variables.list[0].: a variable name may not be empty, hold '.' or start with '$'",
    ]);
  });

  it('bounds their size', () => {
    expect(variableProblems({ text: 'x'.repeat(VARIABLES_MAX_BYTES) })[0]).toMatch(/more than 16000/);
  });
});

describe('pinnedSizeProblems', () => {
  it("refuses a send whose event, with its template, the broker would refuse", () => {
    expect(pinnedSizeProblems({ data: { targets: ['x'] } })).toEqual([]);
    expect(pinnedSizeProblems({ data: { targets: Array.from({ length: 10_000 }, () => 't'.repeat(100)) } })[0]).toMatch(/^notification: with its template the send takes \d+ bytes, more than 1000000/);
  });
});
