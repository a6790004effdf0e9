/**
 * The template editor's form (pure): content by locale as typed ↔ the
 * template API's body (docs/guides/templates.md), and the API's save-time
 * problems (`content.fr.body line 2: …`) by the locale and field they name,
 * so each shows at its field.
 */
export const DEFAULT_LOCALE = 'default';
export const TEMPLATE_FIELDS = ['title', 'body', 'link_to', 'image'] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];

export type LocaleFields = { locale: string } & Record<TemplateField, string>;

export interface TemplateForm {
  name: string;
  locales: LocaleFields[];
  /** Sample variables (JSON object): sent as the save-time check's `samples.variables`, and rendered in the preview. */
  sampleVariables: string;
  /** Sample device metadata, `key=value` lines. */
  sampleMetadata: string;
}

export const emptyLocale = (locale: string): LocaleFields => ({ locale, title: '', body: '', link_to: '', image: '' });
export const newTemplateForm = (): TemplateForm => ({ name: '', locales: [emptyLocale(DEFAULT_LOCALE)], sampleVariables: '', sampleMetadata: '' });

/** Problems by `<locale>.<field>`, `<locale>` (the locale as a whole), `name`, `samples`, or `form`. */
export type TemplateProblems = Record<string, string[]>;

const LOCALE_TAG = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const add = (problems: TemplateProblems, key: string, message: string) => (problems[key] ??= []).push(message);

/** A new locale's tag as typed: valid, and not one the template has. */
export function newLocaleProblem(tag: string, locales: readonly LocaleFields[]): string | undefined {
  const trimmed = tag.trim();
  if (!LOCALE_TAG.test(trimmed)) return `"${trimmed}" is not a locale tag: fr, fr-CA, zh-Hant-TW`;
  const key = trimmed.toLowerCase().replace(/_/g, '-');
  if (locales.some((each) => each.locale.toLowerCase().replace(/_/g, '-') === key)) return `the template has ${trimmed} already`;
  return undefined;
}

/** The editor's form for a saved version's content (fields it does not edit, data/apns/fcm, are kept by `keep`). */
export function formOfTemplate(name: string, content: Record<string, unknown>): TemplateForm {
  const locales = Object.entries(content)
    .filter(([, value]) => isRecord(value))
    .map(([locale, value]) => {
      const fields = value as Record<string, unknown>;
      return { locale, ...Object.fromEntries(TEMPLATE_FIELDS.map((field) => [field, typeof fields[field] === 'string' ? fields[field] : ''])) } as LocaleFields;
    })
    // `default` first, the others as saved.
    .sort((a, b) => Number(b.locale === DEFAULT_LOCALE) - Number(a.locale === DEFAULT_LOCALE));
  return { name, locales: locales.length === 0 ? [emptyLocale(DEFAULT_LOCALE)] : locales, sampleVariables: '', sampleMetadata: '' };
}

/** `key=value` lines as an object; a line without `=` is a problem. */
function metadataOf(text: string, problems: TemplateProblems): Record<string, string> | undefined {
  const result: Record<string, string> = {};
  for (const line of text.split('\n').map((each) => each.trim()).filter((each) => each !== '')) {
    const at = line.indexOf('=');
    if (at <= 0) add(problems, 'samples', `"${line}" is not key=value`);
    else result[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return Object.keys(result).length === 0 ? undefined : result;
}

/** The sample values as the API's `samples` (and the preview's scope). */
export function samplesOf(form: TemplateForm, problems: TemplateProblems): { variables?: Record<string, unknown>; device?: { metadata: Record<string, string> } } {
  let variables: Record<string, unknown> | undefined;
  if (form.sampleVariables.trim() !== '') {
    try {
      const value: unknown = JSON.parse(form.sampleVariables);
      if (isRecord(value)) variables = value;
    } catch {
      // reported below
    }
    if (variables === undefined) add(problems, 'samples', 'sample variables must be a JSON object, e.g. {"order": {"id": "A-1042"}}');
  }
  const metadata = metadataOf(form.sampleMetadata, problems);
  return { ...(variables === undefined ? {} : { variables }), ...(metadata === undefined ? {} : { device: { metadata } }) };
}

/**
 * The body of POST (with `name`) or PUT: every locale's fields, empty
 * optional fields left out; `keep` carries what this editor does not edit
 * (a locale's `data`, `apns`, `fcm`) from the version it started from.
 */
export function templateBodyOf(form: TemplateForm, keep: Record<string, unknown> = {}): { body: { name?: string; content: Record<string, Record<string, unknown>>; samples?: ReturnType<typeof samplesOf> }; problems: TemplateProblems } {
  const problems: TemplateProblems = {};
  if (form.name.trim() === '') add(problems, 'name', 'give the template a name');
  else if (form.name.includes('@')) add(problems, 'name', 'a name has no @ (it separates a version when a send names one)');
  const content: Record<string, Record<string, unknown>> = {};
  for (const locale of form.locales) {
    const kept = isRecord(keep[locale.locale]) ? (keep[locale.locale] as Record<string, unknown>) : {};
    const extra = Object.fromEntries(Object.entries(kept).filter(([key]) => !(TEMPLATE_FIELDS as readonly string[]).includes(key)));
    for (const field of ['title', 'body'] as const) if (locale[field].trim() === '') add(problems, `${locale.locale}.${field}`, `the ${field} is required in every locale`);
    content[locale.locale] = {
      ...extra,
      title: locale.title,
      body: locale.body,
      ...(locale.link_to.trim() === '' ? {} : { link_to: locale.link_to }),
      ...(locale.image.trim() === '' ? {} : { image: locale.image }),
    };
  }
  if (!form.locales.some((locale) => locale.locale === DEFAULT_LOCALE)) add(problems, 'form', 'every template needs a default locale');
  const samples = samplesOf(form, problems);
  return { body: { name: form.name.trim(), content, ...(Object.keys(samples).length === 0 ? {} : { samples }) }, problems };
}

/**
 * The API's messages by what they name: `content.fr-CA.body line 2: …` →
 * `fr-CA.body`; `content.fr: …` or a field this editor does not show →
 * `fr`; `name…` → name; `samples…` → samples; anything else → form.
 */
export function templateProblemsOf(messages: readonly string[], locales: readonly string[]): TemplateProblems {
  const problems: TemplateProblems = {};
  for (const message of messages) {
    const content = /^(?:body\.)?content\.([A-Za-z0-9_-]+)(?:\.([a-z_]+))?/.exec(message);
    const locale = content?.[1];
    const field = content?.[2];
    if (locale !== undefined && locales.includes(locale)) {
      add(problems, field !== undefined && (TEMPLATE_FIELDS as readonly string[]).includes(field) ? `${locale}.${field}` : locale, message);
    } else if (/^(?:body\.)?name\b/.test(message)) add(problems, 'name', message);
    else if (/^(?:body\.)?samples\b/.test(message)) add(problems, 'samples', message);
    else add(problems, 'form', message);
  }
  return problems;
}

/** The locales with a problem, in the form's order (their tabs are marked; the first is opened). */
export function localesWithProblems(problems: TemplateProblems, locales: readonly LocaleFields[]): string[] {
  return locales.map((each) => each.locale).filter((locale) => Object.keys(problems).some((key) => key === locale || key.startsWith(`${locale}.`)));
}
