import { describe, expect, it } from 'vitest';
import { renderBatch, localizeLiteral } from './batch.ts';
import { compileTemplate, NotificationRenderer } from './render.ts';
import type { TemplateContent } from './content.ts';

function renderer(content: TemplateContent, variables: Record<string, unknown> = {}): NotificationRenderer {
  const compiled = compileTemplate(content);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
  return new NotificationRenderer(compiled.template, variables);
}

describe('renderBatch', () => {
  it('gives a batch one content per locale when the template reads no device value', () => {
    const batch = renderBatch(
      renderer({ default: { title: 'Sale {{ pct }}%', body: 'b' }, fr: { title: 'Soldes {{ pct }} %', body: 'b' } }, { pct: 30 }),
      Array.from({ length: 500 }, (_, index) => ({ device_id: `d${index}`, values: { metadata: { n: String(index) }, locale: index % 3 === 0 ? 'fr-CA' : 'en' } })),
    );
    expect(batch.contents.map((content) => content.title)).toEqual(['Soldes 30 %', 'Sale 30%']);
    expect(batch.devices[0]).toEqual({ device_id: 'd0', locale: 'fr', content: 0 });
    expect(batch.devices[1]).toEqual({ device_id: 'd1', locale: 'default', content: 1 });
  });

  it('fails only the device whose render fails, with its locale and problem', () => {
    const batch = renderBatch(renderer({ default: { title: 'Hi {{ device.metadata.name }}', body: 'b' } }), [
      { device_id: 'ok', values: { metadata: { name: 'Ana' } } },
      { device_id: 'bad', values: { metadata: {} } },
      { device_id: 'ok2', values: { metadata: { name: 'Ana' } } },
    ]);
    expect(batch.contents).toEqual([{ title: 'Hi Ana', body: 'b' }]);
    expect(batch.devices).toEqual([
      { device_id: 'ok', locale: 'default', content: 0 },
      { device_id: 'bad', locale: 'default', problem: { locale: 'default', field: 'title', line: 1, message: 'undefined variable: device.metadata.name' } },
      { device_id: 'ok2', locale: 'default', content: 0 },
    ]);
  });
});

describe('localizeLiteral', () => {
  const base = { title: 'Sale', body: 'Today only', link_to: 'shop://sale' };
  it("lays the device's localisation over the send's fields, with the usual fallback", () => {
    const localizations = { fr: { title: 'Soldes', body: "Aujourd'hui seulement" } };
    expect(localizeLiteral(base, localizations, 'fr-CA')).toEqual({ locale: 'fr', content: { title: 'Soldes', body: "Aujourd'hui seulement", link_to: 'shop://sale' } });
    expect(localizeLiteral(base, localizations, 'de')).toEqual({ locale: 'default', content: base });
    expect(localizeLiteral(base, localizations, undefined).content).toBe(base);
  });
});
