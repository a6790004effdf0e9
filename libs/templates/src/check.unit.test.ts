import { describe, expect, it } from 'vitest';
import { checkTemplate, checkVariables } from './check.ts';
import { describeProblem } from './content.ts';

describe('checkTemplate', () => {
  it('accepts a template whose every locale renders with sample values', () => {
    expect(checkTemplate({
      default: { title: 'Hi {{ device.metadata.first_name | default: "there" }}', body: '{{ order.id }} ships {{ order.date | date: "%b %d" }}', link_to: 'app://orders/{{ order.id }}' },
      'fr-CA': { title: 'Salut {{ device.metadata.first_name }}', body: '{% if order.gift %}Cadeau{% endif %} {{ order.id | upcase }}' },
    })).toEqual([]);
  });

  it('needs a default locale, locale tags as keys, bounded fields', () => {
    const problems = checkTemplate({ fr: { title: 't', body: 'b' }, 'not a locale': { title: 't', body: 'x'.repeat(5000) } });
    expect(problems.map(describeProblem)).toEqual([
      'content.default.*: every template needs a `default` locale (what devices of other languages get)',
      'content.not a locale.*: not a locale tag (`fr`, `fr-CA`, `zh-Hant-TW`) nor `default`',
      'content.not a locale.body: 5000 characters, more than 4096',
    ]);
  });

  it('reports syntax errors and render errors with the sample values, naming locale, field and line', () => {
    const problems = checkTemplate({
      default: { title: 'ok', body: 'ok' },
      fr: { title: 'Bonjour', body: 'a\nb\n{{ name | nosuch }}' },
    });
    expect(problems.map(describeProblem)).toEqual(['content.fr.body line 3: undefined filter: nosuch']);
    const rendering = checkTemplate({ default: { title: 'Hi {{ user.name }}', body: 'b' } }, { variables: { user: 'Ana' } });
    expect(rendering).toHaveLength(1);
    expect(rendering[0]).toMatchObject({ locale: 'default', field: 'title', line: 1 });
  });

  it("uses the client's sample values over made-up ones", () => {
    const content = { default: { title: '{% for item in items %}{{ item.name }}{% endfor %}', body: 'b' } };
    expect(checkTemplate(content)).toHaveLength(1);
    expect(checkTemplate(content, { variables: { items: [{ name: 'a' }] } })).toEqual([]);
  });
});

describe('checkVariables', () => {
  const content = { default: { title: 'Order {{ order.id }}', body: 'Hi {{ device.metadata.first_name }}' }, fr: { title: 'Commande {{ order.id }} {{ extra }}', body: 'b' } };

  it('names the locale and field a missing variable breaks', () => {
    expect(checkVariables(content, { order: { id: 7 } }).map(describeProblem)).toEqual(['content.fr.title line 1: undefined variable: extra']);
    expect(checkVariables(content, { order: { id: 7 }, extra: '' })).toEqual([]);
  });

  it('refuses a variable named device: the device is read under that name', () => {
    expect(checkVariables(content, { order: { id: 1 }, extra: 1, device: {} })).toHaveLength(1);
  });
});
