// The API's own Liquid engine (strict, no file tags, bounded) and locale fallback: the preview renders as delivery will.
import { errorLine, errorMessage, parse, readPaths, renderSync } from '../../../../libs/templates/src/engine.ts';
import { pickLocale } from '../../../../libs/templates/src/locale.ts';
import { TEMPLATE_FIELDS, type LocaleFields, type TemplateField } from './template-form.ts';

/** A sample device the preview renders for. */
export interface SampleDevice {
  locale: string;
  metadata: Record<string, string>;
  timezone: string;
}

export type Preview =
  | { ok: true; locale: string; fields: Partial<Record<TemplateField, string>> }
  | { ok: false; locale: string; field: TemplateField; line?: number; message: string };

const SAMPLE = 'sample';

/** Sets "sample" at a path the template reads that the given values leave unset, as the API's save-time check does. */
function fillPath(target: Record<string, unknown>, path: readonly string[]): void {
  let node = target;
  for (const [index, segment] of path.entries()) {
    const current = node[segment];
    if (index === path.length - 1) {
      if (current === undefined) node[segment] = SAMPLE;
      return;
    }
    if (current === null || typeof current !== 'object') node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
}

const clone = (value: Record<string, unknown>): Record<string, unknown> => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

/**
 * What a device with these values gets (pure but for the engine's clock):
 * its locale picked as delivery picks it (`fr-CA` → `fr` → `default`),
 * each field rendered with the sample variables ("sample" for any variable
 * read that they leave out, as the API's check does) and the device's own
 * values (one it lacks fails, unless read with `default`, as in delivery). The first failing field is the answer, naming
 * locale, field and line, as the API's check would.
 */
export function previewTemplate(locales: readonly LocaleFields[], device: SampleDevice, variables: Record<string, unknown>): Preview {
  const locale = pickLocale(
    locales.map((each) => each.locale),
    device.locale.trim() === '' ? undefined : device.locale.trim(),
  );
  const content = locales.find((each) => each.locale === locale) ?? locales[0];
  if (content === undefined) return { ok: true, locale, fields: {} };
  const parsed: Array<[TemplateField, ReturnType<typeof parse>]> = [];
  for (const field of TEMPLATE_FIELDS) {
    if (content[field] === '') continue;
    try {
      parsed.push([field, parse(content[field])]);
    } catch (error) {
      return { ok: false, locale: content.locale, field, ...lineOf(error), message: errorMessage(error) };
    }
  }
  const scope: Record<string, unknown> = clone(variables);
  const view: Record<string, unknown> = { metadata: { ...device.metadata }, locale: device.locale.trim() === '' ? 'en' : device.locale.trim(), timezone: device.timezone };
  for (const [, template] of parsed) {
    for (const path of readPaths(template)) {
      // The device's values are the sample device's own: one it lacks fails here as it would in delivery.
      if (path[0] !== 'device') fillPath(scope, path);
    }
  }
  scope.device = view;
  const fields: Partial<Record<TemplateField, string>> = {};
  for (const [field, template] of parsed) {
    try {
      fields[field] = renderSync(template, scope);
    } catch (error) {
      return { ok: false, locale: content.locale, field, ...lineOf(error), message: errorMessage(error) };
    }
  }
  return { ok: true, locale: content.locale, fields };
}

function lineOf(error: unknown): { line?: number } {
  const line = errorLine(error);
  return line === undefined ? {} : { line };
}

/** A preview's problem as the API words it: `content.fr.body line 2: …`. */
export function previewProblem(preview: Extract<Preview, { ok: false }>): string {
  return `content.${preview.locale}.${preview.field}${preview.line === undefined ? '' : ` line ${preview.line}`}: ${preview.message}`;
}
