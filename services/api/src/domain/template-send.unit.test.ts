import { describe, expect, it } from 'vitest';
import { contentProblems } from './template-send.ts';

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
