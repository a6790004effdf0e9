import { DEFAULT_LOCALE, liquidFields, TEMPLATE_LIMITS, type TemplateContent, type TemplateProblem } from './content.ts';
import { readPaths, parse } from './engine.ts';
import { isLocaleTag } from './locale.ts';
import { compileTemplate, DEVICE_SCOPE, renderLocale, renderScope, type DeviceValues } from './render.ts';

/** Sample values a template is checked with: the client's, over the ones Herald makes up. */
export interface TemplateSamples {
  variables?: Record<string, unknown>;
  device?: Partial<DeviceValues>;
}

const SAMPLE = 'sample';

/** Problems of shape the route schema cannot see: locale keys, `default`, how much there is (pure). */
function shapeProblems(content: TemplateContent): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const locales = Object.keys(content);
  if (!locales.includes(DEFAULT_LOCALE)) problems.push({ locale: DEFAULT_LOCALE, field: '*', message: 'every template needs a `default` locale (what devices of other languages get)' });
  const bytes = Buffer.byteLength(JSON.stringify(content));
  if (bytes > TEMPLATE_LIMITS.contentBytes) problems.push({ locale: '*', field: '*', message: `${bytes} bytes of content, more than ${TEMPLATE_LIMITS.contentBytes}` });
  if (locales.length > TEMPLATE_LIMITS.locales) problems.push({ locale: '*', field: '*', message: `${locales.length} locales, more than ${TEMPLATE_LIMITS.locales}` });
  for (const locale of locales) {
    if (locale !== DEFAULT_LOCALE && !isLocaleTag(locale)) problems.push({ locale, field: '*', message: 'not a locale tag (`fr`, `fr-CA`, `zh-Hant-TW`) nor `default`' });
    const localeContent = content[locale];
    if (localeContent === undefined) continue;
    if (Object.keys(localeContent.data ?? {}).length > TEMPLATE_LIMITS.dataKeys) problems.push({ locale, field: 'data', message: `more than ${TEMPLATE_LIMITS.dataKeys} keys` });
    for (const [field, source] of liquidFields(localeContent)) {
      if (source.length > TEMPLATE_LIMITS.fieldSource) problems.push({ locale, field, message: `${source.length} characters, more than ${TEMPLATE_LIMITS.fieldSource}` });
    }
  }
  return problems;
}

/**
 * Sample values for every path the template reads (pure): each path ends in
 * the string "sample", so filters, conditions and output all run. The
 * client's samples win where given.
 */
export function sampleScope(content: TemplateContent, samples: TemplateSamples, locale: string): { variables: Record<string, unknown>; device: DeviceValues } {
  const variables: Record<string, unknown> = {};
  const device: Record<string, unknown> = { metadata: {}, locale: locale === DEFAULT_LOCALE ? 'en' : locale, timezone: 'UTC' };
  for (const [, source] of liquidFields(content[locale] ?? { title: '', body: '' })) {
    for (const path of readPaths(parse(source))) {
      if (path[0] === DEVICE_SCOPE) setPath(device, path.slice(1));
      else setPath(variables, path);
    }
  }
  const sampleDevice = samples.device ?? {};
  return {
    variables: { ...variables, ...(samples.variables ?? {}) },
    device: {
      metadata: { ...(device.metadata as Record<string, string>), ...(sampleDevice.metadata ?? {}) },
      locale: sampleDevice.locale ?? (device.locale as string),
      timezone: sampleDevice.timezone ?? (device.timezone as string),
    },
  };
}

function setPath(target: Record<string, unknown>, path: readonly string[]): void {
  if (path.length === 0) return;
  let node = target;
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    const current = node[segment];
    if (last) {
      if (current === undefined) node[segment] = SAMPLE;
      return;
    }
    if (current === null || typeof current !== 'object') node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
}

/**
 * The save-time check (pure): shape, then syntax of every field, then a
 * render of every locale with sample values. Every problem at once; none
 * means the template can be saved.
 */
export function checkTemplate(content: TemplateContent, samples: TemplateSamples = {}): TemplateProblem[] {
  const shape = shapeProblems(content);
  if (shape.length > 0) return shape;
  const compiled = compileTemplate(content);
  if (!compiled.ok) return compiled.problems;
  const problems: TemplateProblem[] = [];
  const started = performance.now();
  for (const locale of compiled.template.keys) {
    // Each render is bounded (TEMPLATE_LIMITS.renderMs); the whole check is too, so a stranger's template costs the API little.
    if (performance.now() - started > TEMPLATE_LIMITS.checkMs) return [...problems, { locale, field: '*', message: `the template took over ${TEMPLATE_LIMITS.checkMs} ms to render; make it simpler` }];
    const scope = sampleScope(content, samples, locale);
    const result = renderLocale(compiled.template, locale, renderScope(scope.variables, scope.device));
    if (!result.ok) problems.push(result.problem);
  }
  return problems;
}

/**
 * The send-time check of a send's variables (pure): every locale renders
 * with them and sample device values. A missing or unusable variable is the
 * request's fault (422); a device lacking a metadata value is the device's
 * (TemplateError for that device only, at delivery).
 */
export function checkVariables(content: TemplateContent, variables: Record<string, unknown>): TemplateProblem[] {
  const compiled = compileTemplate(content);
  if (!compiled.ok) return compiled.problems;
  if (Object.hasOwn(variables, DEVICE_SCOPE)) return [{ locale: '*', field: '*', message: '`device` is not a variable name a send may use: templates read the device under it' }];
  const problems: TemplateProblem[] = [];
  for (const locale of compiled.template.keys) {
    const { device } = sampleScope(content, {}, locale);
    const result = renderLocale(compiled.template, locale, renderScope(variables, device));
    if (!result.ok) problems.push(result.problem);
  }
  return problems;
}
