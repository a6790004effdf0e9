// `npm run bench:template-render`: the rendering cost per push alone, in
// this process: the fan-out's content step (content-step.ts) over 100,000
// devices in 10 locales, for a template reading a device metadata value
// (first names from a pool of 2,000: the memo's realistic case), one
// reading none (rendered once per locale), a literal send with
// localisations, and a plain literal send (no content step at all: 0).
// CPU µs per device and renders run; best of three passes after a warm-up.
import type { FanoutMessageV2 } from '@herald/events';
import { contentMakerFor, contentsOfRows, withContents } from '../../services/delivery/src/fanout/content-step.ts';

const DEVICES = 100_000;
const LOCALES = ['en', 'fr', 'fr-CA', 'de', 'es', 'it', 'pt-BR', 'ja', 'ko', 'zh-Hant'];
const NAMES = 2_000;
const PAGE = 10_000;
const BATCH = 500;

const devices = Array.from({ length: DEVICES }, (_, index) => ({
  metadata: { first_name: `Name${index % NAMES}`, plan: index % 3 === 0 ? 'pro' : 'free' },
  locale: LOCALES[index % LOCALES.length],
  timezone: 'Europe/Paris',
}));
const index = { rowsAt: (_partition: number, ordinals: readonly number[]) => ordinals.map((ordinal) => devices[ordinal] as never) };

function localized(title: string): Record<string, { title: string; body: string }> {
  return Object.fromEntries(LOCALES.map((locale) => [locale, { title: `${title} (${locale})`, body: `Body ${locale} {{ order.id }}` }]));
}

const personalised: FanoutMessageV2 = {
  title: 'x',
  body: 'x',
  template: {
    id: 't',
    name: 'personalised',
    version: 1,
    variables: { order: { id: 'A-1' } },
    content: { default: { title: 'Hi {{ device.metadata.first_name | default: "there" }}', body: 'Order {{ order.id }}' }, ...Object.fromEntries(Object.entries(localized('Hi')).map(([locale, content]) => [locale, { ...content, title: `${content.title} {{ device.metadata.first_name | default: "" }}` }])) },
  },
};
const perLocale: FanoutMessageV2 = { title: 'x', body: 'x', template: { id: 't', name: 'sale', version: 1, variables: { order: { id: 'A-1' } }, content: { default: { title: 'Sale', body: 'Order {{ order.id }}' }, ...localized('Sale') } } };
const literal: FanoutMessageV2 = { title: 'Sale', body: 'Today', localizations: Object.fromEntries(LOCALES.map((locale) => [locale, { title: `Sale ${locale}` }])) };

function pass(message: FanoutMessageV2): { usPerDevice: number } {
  const started = process.cpuUsage();
  // A fresh maker per pass: a new notification, its memo empty.
  const maker = contentMakerFor(message)!;
  for (let start = 0; start < DEVICES; start += PAGE) {
    const rows = Array.from({ length: PAGE }, (_, at) => ({ ordinal: start + at, device_id: `d${start + at}` }));
    const contents = contentsOfRows(maker, index, 0, rows);
    for (let cut = 0; cut < PAGE; cut += BATCH) {
      withContents({ provider: 'fcm', sequence: cut, devices: rows.slice(cut, cut + BATCH).map((row) => ({ device_id: row.device_id, token: 't' })) }, contents);
    }
  }
  const used = process.cpuUsage(started);
  return { usPerDevice: (used.user + used.system) / DEVICES };
}

const results: Record<string, number> = {};
for (const [name, message] of Object.entries({ personalised, per_locale: perLocale, literal_localizations: literal })) {
  pass(message);
  results[name] = Math.min(...[0, 1, 2].map(() => pass(message).usPerDevice));
}
for (const [name, value] of Object.entries(results)) console.log(`${name.padEnd(24)} ${value.toFixed(2)} µs CPU per device`);
console.log(`${'plain literal'.padEnd(24)} 0 (no content step)`);
