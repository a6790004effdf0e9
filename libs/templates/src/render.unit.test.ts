import { describe, expect, it } from 'vitest';
import { compileTemplate, NotificationRenderer, renderKey, type CompiledTemplate } from './render.ts';
import type { TemplateContent } from './content.ts';

function compiled(content: TemplateContent): CompiledTemplate {
  const result = compileTemplate(content);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.template;
}

const greeting: TemplateContent = {
  default: { title: 'Hi {{ device.metadata.first_name | default: "there" }}', body: '{{ count }} new messages', data: { screen: 'inbox/{{ box }}' } },
  fr: { title: 'Bonjour {{ device.metadata.first_name | default: "à vous" }}', body: '{{ count }} nouveaux messages', data: { screen: 'inbox/{{ box }}' } },
};

describe('compileTemplate', () => {
  it('names locale, field and line of every syntax error at once', () => {
    const result = compileTemplate({ default: { title: 'ok', body: 'line 1\n{% if x %}' }, fr: { title: '{{ x | nosuch }}', body: 'b' } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      { locale: 'default', field: 'body', line: 2, message: expect.stringContaining('not closed') },
      { locale: 'fr', field: 'title', line: 1, message: expect.stringContaining('undefined filter: nosuch') },
    ]);
  });

  it('refuses the tags that read other templates or files', () => {
    for (const tag of ['{% include "x" %}', '{% render "/etc/passwd" %}', '{% layout "x" %}']) {
      const result = compileTemplate({ default: { title: tag, body: 'b' } });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problems[0]?.message).toMatch(/not available/);
    }
  });

  it('records the device paths a template reads, or all of the device when read by a computed key', () => {
    expect(compiled(greeting).devicePaths).toEqual([['metadata', 'first_name']]);
    expect(compiled({ default: { title: '{{ device.locale }} {{ device.timezone }}', body: 'b' } }).devicePaths).toEqual([['locale'], ['timezone']]);
    expect(compiled({ default: { title: '{{ device.metadata[k] }}', body: 'b' } }).devicePaths).toBe('all');
    expect(compiled({ default: { title: '{{ name }}', body: 'b' } }).devicePaths).toEqual([]);
  });
});

describe('NotificationRenderer', () => {
  it('renders each device in its language with its own values, falling back to default', () => {
    const renderer = new NotificationRenderer(compiled(greeting), { count: 3, box: 'main' });
    expect(renderer.render({ metadata: { first_name: 'Ana' }, locale: 'fr-CA' })).toEqual({
      ok: true,
      locale: 'fr',
      content: { title: 'Bonjour Ana', body: '3 nouveaux messages', data: { screen: 'inbox/main' } },
    });
    expect(renderer.render({ metadata: {}, locale: 'de' })).toMatchObject({ ok: true, locale: 'default', content: { title: 'Hi there', body: '3 new messages' } });
    expect(renderer.render({ metadata: {} })).toMatchObject({ ok: true, locale: 'default' });
  });

  it('renders a template reading no device value once per locale, however many devices', () => {
    const renderer = new NotificationRenderer(compiled({ default: { title: 'Sale: {{ pct }}%', body: 'b' }, fr: { title: 'Soldes : {{ pct }} %', body: 'b' } }), { pct: 20 });
    for (let index = 0; index < 1000; index += 1) {
      renderer.render({ metadata: { first_name: `user ${index}` }, locale: index % 2 === 0 ? 'fr-FR' : 'en-US', timezone: 'Europe/Paris' });
    }
    expect(renderer.renders).toBe(2);
  });

  it('renders once per distinct value a personalised template reads', () => {
    const renderer = new NotificationRenderer(compiled(greeting), { count: 1, box: 'b' });
    for (let index = 0; index < 100; index += 1) renderer.render({ metadata: { first_name: index % 5 === 0 ? 'Ana' : 'Bo', plan: `p${index}` }, locale: 'en' });
    expect(renderer.renders).toBe(2);
  });

  it('fails a device whose values make the render fail, naming locale, field and line, and keeps rendering others', () => {
    const renderer = new NotificationRenderer(compiled({ default: { title: 'Hi', body: 'Plan:\n{{ device.metadata.plan }}' } }), {});
    const failed = renderer.render({ metadata: {} });
    expect(failed).toEqual({ ok: false, locale: 'default', problem: { locale: 'default', field: 'body', line: 2, message: 'undefined variable: device.metadata.plan' } });
    expect(renderer.render({ metadata: { plan: 'gold' } })).toMatchObject({ ok: true, content: { body: 'Plan:\ngold' } });
  });

  it('bounds render work and output: a huge loop or a huge output is a render error, not a hang', () => {
    const loop = new NotificationRenderer(compiled({ default: { title: '{% for i in (1..100000000) %}{{ i }}{% endfor %}', body: 'b' } }), {});
    expect(loop.render({ metadata: {} }).ok).toBe(false);
    const big = new NotificationRenderer(compiled({ default: { title: '{{ text }}', body: 'b' } }), { text: 'x'.repeat(5000) });
    const result = big.render({ metadata: {} });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.message).toMatch(/renders to 5000 bytes/);
  });

  it('cannot read prototype properties of variables', () => {
    const renderer = new NotificationRenderer(compiled({ default: { title: '{{ v.constructor }}', body: 'b' } }), { v: {} });
    expect(renderer.render({ metadata: {} }).ok).toBe(false);
  });

  it('keys renders by locale and the values read only', () => {
    const template = compiled(greeting);
    expect(renderKey(template, 'fr', { metadata: { first_name: 'A', other: '1' } })).toBe(renderKey(template, 'fr', { metadata: { first_name: 'A', other: '2' }, timezone: 'UTC' }));
    expect(renderKey(template, 'fr', { metadata: { first_name: 'A' } })).not.toBe(renderKey(template, 'default', { metadata: { first_name: 'A' } }));
  });
});
