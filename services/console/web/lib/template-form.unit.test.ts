import { describe, expect, it } from 'vitest';
import { emptyLocale, formOfTemplate, localesWithProblems, newLocaleProblem, newTemplateForm, templateBodyOf, templateProblemsOf } from './template-form.ts';
import { previewProblem, previewTemplate } from './template-preview.ts';

const form = () => ({
  ...newTemplateForm(),
  name: 'order-shipped',
  locales: [
    { ...emptyLocale('default'), title: 'Hi {{ device.metadata.first_name | default: "there" }}', body: 'Order {{ order.id }} shipped', link_to: 'shop://orders/{{ order.id }}' },
    { ...emptyLocale('fr'), title: 'Bonjour', body: 'Commande {{ order.id }} expédiée' },
  ],
});

describe('the template body', () => {
  it('holds every locale, empty optional fields left out, samples when given', () => {
    const { body, problems } = templateBodyOf({ ...form(), sampleVariables: '{"order": {"id": "A-1"}}', sampleMetadata: 'first_name=Ana' });
    expect(problems).toEqual({});
    expect(body).toEqual({
      name: 'order-shipped',
      content: {
        default: { title: 'Hi {{ device.metadata.first_name | default: "there" }}', body: 'Order {{ order.id }} shipped', link_to: 'shop://orders/{{ order.id }}' },
        fr: { title: 'Bonjour', body: 'Commande {{ order.id }} expédiée' },
      },
      samples: { variables: { order: { id: 'A-1' } }, device: { metadata: { first_name: 'Ana' } } },
    });
  });

  it('keeps what the editor does not show (data, apns, fcm) from the version it started from', () => {
    const { body } = templateBodyOf(form(), { fr: { title: 'old', body: 'old', data: { k: 'v' }, apns: { aps: {} } } });
    expect(body.content.fr).toEqual({ data: { k: 'v' }, apns: { aps: {} }, title: 'Bonjour', body: 'Commande {{ order.id }} expédiée' });
  });

  it('names a missing name, title or body, bad samples and no default', () => {
    const { problems } = templateBodyOf({ name: 'a@b', locales: [{ ...emptyLocale('fr'), title: 'x' }], sampleVariables: '[]', sampleMetadata: 'nokey' });
    expect(problems).toEqual({
      name: ['a name has no @ (it separates a version when a send names one)'],
      'fr.body': ['the body is required in every locale'],
      form: ['every template needs a default locale'],
      samples: ['sample variables must be a JSON object, e.g. {"order": {"id": "A-1042"}}', '"nokey" is not key=value'],
    });
  });

  it('is read back from a saved version, default first', () => {
    const back = formOfTemplate('order-shipped', { fr: { title: 'Bonjour', body: 'b' }, default: { title: 'Hi', body: 'b', image: 'https://x/y.png' } });
    expect(back.locales.map((each) => each.locale)).toEqual(['default', 'fr']);
    expect(back.locales[0]).toEqual({ locale: 'default', title: 'Hi', body: 'b', link_to: '', image: 'https://x/y.png' });
  });
});

describe('locales', () => {
  it('a new one is a valid tag the template does not have', () => {
    expect(newLocaleProblem('fr-CA', form().locales)).toBeUndefined();
    expect(newLocaleProblem('FR', form().locales)).toBe('the template has FR already');
    expect(newLocaleProblem('french', form().locales)).toBe('"french" is not a locale tag: fr, fr-CA, zh-Hant-TW');
  });
});

describe('the API’s save-time problems', () => {
  it('go to the locale and field they name', () => {
    const problems = templateProblemsOf(
      ['content.fr.body line 2: undefined filter: nosuch', 'content.fr.data.k line 1: x', 'content.default.title line 1: unexpected', 'name must match', 'samples.variables must be object', 'content.de.title: unknown', 'too big'],
      ['default', 'fr'],
    );
    expect(problems).toEqual({
      'fr.body': ['content.fr.body line 2: undefined filter: nosuch'],
      fr: ['content.fr.data.k line 1: x'],
      'default.title': ['content.default.title line 1: unexpected'],
      name: ['name must match'],
      samples: ['samples.variables must be object'],
      form: ['content.de.title: unknown', 'too big'],
    });
    expect(localesWithProblems(problems, form().locales)).toEqual(['default', 'fr']);
  });
});

describe('the preview', () => {
  const device = { locale: 'fr-CA', metadata: {}, timezone: 'UTC' };
  it('renders the locale a device gets, with the samples and "sample" for variables left out', () => {
    expect(previewTemplate(form().locales, device, { order: { id: 'A-9' } })).toEqual({ ok: true, locale: 'fr', fields: { title: 'Bonjour', body: 'Commande A-9 expédiée' } });
    expect(previewTemplate(form().locales, { ...device, locale: 'de', metadata: { first_name: 'Ana' } }, {})).toEqual({
      ok: true,
      locale: 'default',
      fields: { title: 'Hi Ana', body: 'Order sample shipped', link_to: 'shop://orders/sample' },
    });
  });

  it('names the locale, field and line that fail, as the API does', () => {
    const locales = [{ ...emptyLocale('default'), title: 'ok', body: 'line one\n{{ name | nosuch }}' }];
    const preview = previewTemplate(locales, device, {});
    expect(preview.ok).toBe(false);
    if (!preview.ok) expect(previewProblem(preview)).toBe('content.default.body line 2: undefined filter: nosuch');
    // A device value it lacks fails, as in delivery; with `default` it does not.
    const strict = previewTemplate([{ ...emptyLocale('default'), title: '{{ device.metadata.plan }}', body: 'b' }], device, {});
    expect(strict).toMatchObject({ ok: false, field: 'title' });
  });
});
