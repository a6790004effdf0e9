import type { Template } from 'liquidjs';
import { liquidFields, TEMPLATE_LIMITS, type LocaleContent, type RenderedContent, type TemplateContent, type TemplateProblem } from './content.ts';
import { errorLine, errorMessage, parse, readPaths, renderSync } from './engine.ts';
import { pickLocale } from './locale.ts';

/** What a template may read of the device it renders for. */
export interface DeviceValues {
  metadata: Record<string, string>;
  locale?: string | undefined;
  timezone?: string | undefined;
}

/** The scope name device values are read under; a send's variables may not use it. */
export const DEVICE_SCOPE = 'device';

interface CompiledField {
  field: string;
  template: Template[];
}
interface CompiledLocale {
  fields: CompiledField[];
  content: LocaleContent;
}

/**
 * A template parsed once (per notification, in delivery): each locale's
 * fields, and which device values it reads — `paths` lists them, or `all`
 * when it reads the device as a whole or by a computed key, so a render
 * can be shared by every device that agrees on them.
 */
export interface CompiledTemplate {
  locales: Map<string, CompiledLocale>;
  keys: string[];
  devicePaths: string[][] | 'all';
}

export type CompileResult = { ok: true; template: CompiledTemplate } | { ok: false; problems: TemplateProblem[] };

/** Parses every field of every locale; every syntax problem at once, each naming locale, field and line. */
export function compileTemplate(content: TemplateContent): CompileResult {
  const problems: TemplateProblem[] = [];
  const locales = new Map<string, CompiledLocale>();
  const devicePaths: string[][] = [];
  let readsWholeDevice = false;
  for (const [locale, localeContent] of Object.entries(content)) {
    const fields: CompiledField[] = [];
    for (const [field, source] of liquidFields(localeContent)) {
      try {
        const template = parse(source);
        fields.push({ field, template });
        for (const path of readPaths(template)) {
          if (path[0] !== DEVICE_SCOPE) continue;
          // `device` or `device.metadata` alone (or by a computed key): every value of the device matters.
          if (path.length < 2 || (path[1] === 'metadata' && path.length < 3)) readsWholeDevice = true;
          else devicePaths.push(path.slice(1));
        }
      } catch (error) {
        const line = errorLine(error);
        problems.push({ locale, field, ...(line === undefined ? {} : { line }), message: errorMessage(error) });
      }
    }
    locales.set(locale, { fields, content: localeContent });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, template: { locales, keys: [...locales.keys()], devicePaths: readsWholeDevice ? 'all' : dedupe(devicePaths) } };
}

function dedupe(paths: string[][]): string[][] {
  const seen = new Map(paths.map((path) => [path.join('\u0000'), path]));
  return [...seen.values()];
}

export type RenderResult =
  | { ok: true; locale: string; content: RenderedContent }
  | { ok: false; locale: string; problem: TemplateProblem };

/**
 * Renders one locale of a compiled template with a scope (pure but for
 * liquidjs's clock, which bounds its time). The first failing field ends
 * it: a device gets all its content or a TemplateError. Rendered fields
 * over TEMPLATE_LIMITS.renderedField bytes fail too.
 */
export function renderLocale(template: CompiledTemplate, locale: string, scope: object): RenderResult {
  const compiled = template.locales.get(locale);
  if (compiled === undefined) return { ok: false, locale, problem: { locale, field: '*', message: `the template has no locale ${locale}` } };
  const { data: _data, ...rendered } = compiled.content;
  const data: Record<string, string> = {};
  for (const { field, template: parsed } of compiled.fields) {
    let value: string;
    try {
      value = renderSync(parsed, scope);
    } catch (error) {
      const line = errorLine(error);
      return { ok: false, locale, problem: { locale, field, ...(line === undefined ? {} : { line }), message: errorMessage(error) } };
    }
    const bytes = Buffer.byteLength(value);
    if (bytes > TEMPLATE_LIMITS.renderedField) {
      return { ok: false, locale, problem: { locale, field, message: `renders to ${bytes} bytes, more than ${TEMPLATE_LIMITS.renderedField}` } };
    }
    if (field.startsWith('data.')) data[field.slice('data.'.length)] = value;
    else (rendered as Record<string, unknown>)[field] = value;
  }
  return { ok: true, locale, content: { ...rendered, ...(compiled.content.data === undefined ? {} : { data }) } };
}

/** The scope a template renders in: the send's variables, and the device under `device`. */
export function renderScope(variables: Readonly<Record<string, unknown>>, device: DeviceValues): object {
  const view: Record<string, unknown> = { metadata: device.metadata };
  if (device.locale !== undefined) view.locale = device.locale;
  if (device.timezone !== undefined) view.timezone = device.timezone;
  return { ...variables, [DEVICE_SCOPE]: view };
}

/**
 * What of a device a render depends on (pure): its chosen locale and the
 * values at the paths the template reads. Devices with equal keys get the
 * same content, so it is rendered once for all of them.
 */
export function renderKey(template: CompiledTemplate, locale: string, device: DeviceValues): string {
  if (template.devicePaths === 'all') return JSON.stringify([locale, device.metadata, device.locale ?? null, device.timezone ?? null]);
  const values = template.devicePaths.map((path) => valueAt(device, path) ?? null);
  return JSON.stringify([locale, values]);
}

function valueAt(device: DeviceValues, path: readonly string[]): unknown {
  let value: unknown = device;
  for (const segment of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** Renders kept per notification at most: a template personalised per device renders once per device, and this keeps memory flat. */
export const MEMO_LIMIT = 10_000;

/**
 * One notification's renders (delivery): picks each device's locale, and
 * renders once per distinct key (renderKey), so a template reading no
 * device value renders once per locale. A failing render is remembered as
 * well: every device with that key fails alike, without rendering again.
 */
export class NotificationRenderer {
  readonly #template: CompiledTemplate;
  readonly #variables: Readonly<Record<string, unknown>>;
  readonly #memo = new Map<string, RenderResult>();
  /** Renders actually run (the rest came from the memo): what the tests and the benchmark count. */
  renders = 0;

  constructor(template: CompiledTemplate, variables: Readonly<Record<string, unknown>>) {
    this.#template = template;
    this.#variables = variables;
  }

  render(device: DeviceValues): RenderResult {
    const locale = pickLocale(this.#template.keys, device.locale);
    const key = renderKey(this.#template, locale, device);
    const known = this.#memo.get(key);
    if (known !== undefined) return known;
    const result = renderLocale(this.#template, locale, renderScope(this.#variables, device));
    this.renders += 1;
    if (this.#memo.size >= MEMO_LIMIT) this.#memo.clear();
    this.#memo.set(key, result);
    return result;
  }
}
