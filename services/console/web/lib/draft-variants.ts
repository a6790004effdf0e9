import type { paths } from '@herald/client';

/** The send request body, exactly as the API's OpenAPI document types it (draft.ts re-exports it: it builds on this file). */
export type SendBody = paths['/api/v1/notifications']['post']['requestBody']['content']['application/json'];
export type NotificationRequest = SendBody['notification'];
// The problems this file names, by its form's content fields (draft.ts's FieldProblems covers every field).
/** A content field of the composer's form (draft.ts's DraftField narrowed to content). */
type DraftField = keyof ContentForm;
type FieldProblems = Partial<Record<DraftField | 'form', string[]>>;

/**
 * The composer's content beyond one title and body (docs/guides/templates.md):
 * literal text with optional localisations, a template with variables, or an
 * A/B test of 2–5 variants with a holdout and a test share. Pure: the form
 * as typed ↔ the request's content fields, and the problems found before
 * asking the API.
 */
export type ContentMode = 'literal' | 'template' | 'ab';

/** A literal send's text for one locale (not Liquid). */
export interface LocaleText {
  locale: string;
  title: string;
  body: string;
}

/** One variant of an A/B send as typed: literal text or a template with its variables (JSON). */
export interface VariantForm {
  name: string;
  kind: 'literal' | 'template';
  title: string;
  body: string;
  template: string;
  variables: string;
}

/** The content part of the composer's form (merged into Draft). */
export interface ContentForm {
  contentMode: ContentMode;
  title: string;
  body: string;
  localizations: LocaleText[];
  /** A template's name (or id). */
  template: string;
  /** Empty: the newest version. */
  templateVersion: string;
  /** The template's variables as a JSON object. */
  variables: string;
  variants: VariantForm[];
  holdout_percent: string;
  /** Empty: no test (every device outside the holdout takes part, nothing is decided). */
  testPercent: string;
  /** ISO 8601 duration (`PT2H`). */
  decideAfter: string;
  /** The variant the remainder gets when none wins; empty: the first. */
  fallback: string;
}

export const newVariant = (name: string): VariantForm => ({ name, kind: 'literal', title: '', body: '', template: '', variables: '' });

export const EMPTY_CONTENT: ContentForm = {
  contentMode: 'literal',
  title: '',
  body: '',
  localizations: [],
  template: '',
  templateVersion: '',
  variables: '',
  variants: [newVariant('A'), newVariant('B')],
  holdout_percent: '',
  testPercent: '',
  decideAfter: '',
  fallback: '',
};

export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 5;
export const MAX_HOLDOUT = 50;
const VARIANT_NAME = /^[A-Za-z0-9_-]{1,32}$/;
/** As libs/templates (LOCALE_PATTERN): `fr`, `fr-CA`, `zh-Hant-TW`. */
const LOCALE_TAG = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/;
/** Days, hours, minutes and seconds, as the API reads decide_after. */
const DURATION = /^P(?=\d|T\d)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;

type Content = Pick<NotificationRequest, 'title' | 'body' | 'localizations' | 'template' | 'variables' | 'variants' | 'holdout_percent' | 'test' | 'fallback'>;

const add = (problems: FieldProblems, field: DraftField, message: string) => (problems[field] ??= []).push(message);

function jsonObject(text: string, field: DraftField, problems: FieldProblems, what: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  add(problems, field, `${what} must be a JSON object, e.g. {"order": {"id": "A-1042"}}`);
  return undefined;
}

function wholeIn(text: string, min: number, max: number, field: DraftField, problems: FieldProblems, what: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text.trim());
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  add(problems, field, `${what}: a whole number from ${min} to ${max}`);
  return undefined;
}

/** A literal send's localisations: each locale tag valid and once, with a title or a body. */
export function localizationsOf(rows: readonly LocaleText[], problems: FieldProblems): Content['localizations'] {
  const result: NonNullable<Content['localizations']> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    const locale = row.locale.trim();
    const key = locale.toLowerCase().replace('_', '-');
    if (!LOCALE_TAG.test(locale)) add(problems, 'localizations', `"${locale}" is not a locale tag (fr, fr-CA, zh-Hant-TW)`);
    else if (seen.has(key)) add(problems, 'localizations', `${locale} is there twice`);
    else if (row.title.trim() === '' && row.body.trim() === '') add(problems, 'localizations', `${locale}: give a title or a body (the send's own fill in the other), or remove the locale`);
    seen.add(key);
    const text = { ...(row.title.trim() === '' ? {} : { title: row.title }), ...(row.body.trim() === '' ? {} : { body: row.body }) };
    if (LOCALE_TAG.test(locale)) result[locale] = text;
  }
  return Object.keys(result).length === 0 ? undefined : result;
}

/** A template reference: `name` or `name@version`. */
export function templateRef(name: string, version: string, field: DraftField, problems: FieldProblems): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') {
    add(problems, field, 'pick a template');
    return undefined;
  }
  if (trimmed.includes('@')) return trimmed;
  const pinned = wholeIn(version, 1, 1_000_000, field, problems, 'version');
  return pinned === undefined ? trimmed : `${trimmed}@${pinned}`;
}

/** The variants of an A/B send, each checked; names unique. */
function variantsOf(form: ContentForm, problems: FieldProblems): NonNullable<Content['variants']> {
  if (form.variants.length < MIN_VARIANTS || form.variants.length > MAX_VARIANTS) add(problems, 'variants', `an A/B test has ${MIN_VARIANTS} to ${MAX_VARIANTS} variants`);
  const names = new Set<string>();
  return form.variants.map((variant, n) => {
    const name = variant.name.trim();
    const label = `variant ${n + 1}${name === '' ? '' : ` (${name})`}`;
    if (!VARIANT_NAME.test(name)) add(problems, 'variants', `${label}: a name of letters, digits, - or _ (at most 32)`);
    else if (names.has(name)) add(problems, 'variants', `${label}: the name is taken by another variant`);
    names.add(name);
    if (variant.kind === 'template') {
      const template = templateRef(variant.template, '', 'variants', problems);
      const variables = jsonObject(variant.variables, 'variants', problems, `${label}: variables`);
      return { name, ...(template === undefined ? {} : { template }), ...(variables === undefined ? {} : { variables }) };
    }
    // An empty title or body is the API's to name (notification.variants[n]…): a fresh form is not in error before anything is typed.
    return { name, title: variant.title, body: variant.body };
  });
}

/** The A/B fields: variants, holdout, and the test when a test share is given. */
function splitTestOf(form: ContentForm, problems: FieldProblems): Content {
  const variants = variantsOf(form, problems);
  const holdout = wholeIn(form.holdout_percent, 0, MAX_HOLDOUT, 'holdout_percent', problems, 'holdout (%)');
  const percent = wholeIn(form.testPercent, 1, 100, 'testPercent', problems, 'test share (%)');
  const decideAfter = form.decideAfter.trim().toUpperCase();
  if (percent !== undefined && !DURATION.test(decideAfter)) add(problems, 'decideAfter', 'when to decide: an ISO 8601 duration such as PT2H, PT90M or P1D (at most P7D)');
  if (percent === undefined && form.testPercent.trim() === '' && decideAfter !== '') add(problems, 'testPercent', 'give the test share (%) to decide after a while, or clear "decide after"');
  const fallback = form.fallback.trim();
  if (fallback !== '' && !variants.some((variant) => variant.name === fallback)) add(problems, 'fallback', `${fallback} is not one of the variants`);
  return {
    variants,
    ...(holdout === undefined ? {} : { holdout_percent: holdout }),
    ...(percent === undefined ? {} : { test: { percent, decide_after: decideAfter, metric: 'open_rate' as const } }),
    ...(fallback === '' || percent === undefined ? {} : { fallback }),
  };
}

/** The request's content fields for the form's mode; problems by the field they name. */
export function contentOf(form: ContentForm, problems: FieldProblems): Content {
  if (form.contentMode === 'template') {
    const template = templateRef(form.template, form.templateVersion, 'template', problems);
    const variables = jsonObject(form.variables, 'variables', problems, 'variables');
    return { ...(template === undefined ? {} : { template }), ...(variables === undefined ? {} : { variables }) };
  }
  if (form.contentMode === 'ab') return splitTestOf(form, problems);
  const localizations = localizationsOf(form.localizations, problems);
  return { title: form.title, body: form.body, ...(localizations === undefined ? {} : { localizations }) };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
const json = (value: unknown): string => (isRecord(value) ? JSON.stringify(value) : '');

/**
 * A template reference as a request holds it: `name@3` or `name` as sent,
 * or the version the API pinned in a stored request (`{id, name, version,
 * content, variables}`, as GET /api/v1/notifications/{id} shows it).
 */
export function templateOf(value: unknown): { name: string; version: string; variables?: unknown } | undefined {
  if (typeof value === 'string') {
    const at = value.lastIndexOf('@');
    return at < 0 ? { name: value, version: '' } : { name: value.slice(0, at), version: value.slice(at + 1) };
  }
  if (isRecord(value) && typeof value.name === 'string') return { name: value.name, version: str(value.version), variables: value.variables };
  return undefined;
}

/** The content form of a request (a sent notification's, or a draft without a form): the inverse of contentOf. */
export function contentFormOf(request: Record<string, unknown>): ContentForm {
  if (Array.isArray(request.variants)) {
    const test = isRecord(request.test) ? request.test : undefined;
    return {
      ...EMPTY_CONTENT,
      contentMode: 'ab',
      variants: request.variants.filter(isRecord).map((variant) => {
        const template = templateOf(variant.template);
        return {
          name: str(variant.name),
          kind: template === undefined ? ('literal' as const) : ('template' as const),
          title: template === undefined ? str(variant.title) : '',
          body: template === undefined ? str(variant.body) : '',
          template: template === undefined ? '' : template.version === '' ? template.name : `${template.name}@${template.version}`,
          variables: json(variant.variables ?? template?.variables),
        };
      }),
      holdout_percent: str(request.holdout_percent),
      testPercent: str(test?.percent),
      decideAfter: str(test?.decide_after),
      fallback: str(request.fallback),
    };
  }
  const template = templateOf(request.template);
  if (template !== undefined) {
    return { ...EMPTY_CONTENT, contentMode: 'template', template: template.name, templateVersion: template.version, variables: json(request.variables ?? template.variables) };
  }
  const localizations = isRecord(request.localizations)
    ? Object.entries(request.localizations).map(([locale, text]) => ({ locale, title: str(isRecord(text) ? text.title : ''), body: str(isRecord(text) ? text.body : '') }))
    : [];
  return { ...EMPTY_CONTENT, title: str(request.title), body: str(request.body), localizations };
}

/** Where the API's message about a content field belongs in the form (`notification.variants[1].title` → variants). */
export const CONTENT_FIELD_OF: Record<string, DraftField> = {
  localizations: 'localizations',
  template: 'template',
  variables: 'variables',
  variants: 'variants',
  holdout_percent: 'holdout_percent',
  test: 'testPercent',
  fallback: 'fallback',
};

/** Seconds of an ISO 8601 duration of days, hours, minutes and seconds (`P1DT2H`), as decide_after takes; undefined for any other text. */
export function durationSeconds(text: string): number | undefined {
  const match = DURATION.exec(text.trim().toUpperCase());
  if (match === null) return undefined;
  const [days, hours, minutes, seconds] = [match[1], match[3], match[4], match[5]].map((part) => (part === undefined ? 0 : Number.parseInt(part, 10)));
  return (days ?? 0) * 86_400 + (hours ?? 0) * 3_600 + (minutes ?? 0) * 60 + (seconds ?? 0);
}
