/**
 * What one locale of a template holds: the notification's content fields.
 * The text fields are Liquid; `data` values are Liquid too; `apns` and `fcm`
 * (per-platform overrides, merged last by libs/push-payloads) are sent as
 * written, never rendered.
 */
export interface LocaleContent {
  title: string;
  body: string;
  link_to?: string;
  image?: string;
  data?: Record<string, string>;
  apns?: Record<string, unknown>;
  fcm?: Record<string, unknown>;
}

/** A template's content: `default` and any number of locales (`fr`, `fr-CA`, …). */
export type TemplateContent = Record<string, LocaleContent>;

/** The content one device gets: every Liquid field rendered. */
export type RenderedContent = LocaleContent;

/** The locale every template has, and every device falls back to last. */
export const DEFAULT_LOCALE = 'default';

/** The Liquid fields of a locale's content, as the problems name them (`data.<key>` for data values). */
export const TEXT_FIELDS = ['title', 'body', 'link_to', 'image'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/** Bounds on what a template may cost (docs/guides/templates.md, "Limits"). */
export const TEMPLATE_LIMITS = {
  /** Characters of Liquid source one field may hold. */
  fieldSource: 4096,
  /** Bytes one rendered field may take: a push's whole payload is 4 KB at most. */
  renderedField: 4096,
  /** Locales per template, `default` included. */
  locales: 50,
  /** Bytes of a template's whole content as JSON: a send carries the version it uses in its event. */
  contentBytes: 64_000,
  /** Keys of `data` per locale. */
  dataKeys: 20,
  /** Milliseconds one field's render may take (liquidjs `renderLimit`). */
  renderMs: 50,
  /** Milliseconds the save-time check may take over all locales. */
  checkMs: 500,
  /** Objects one render may create (liquidjs `memoryLimit`): ranges and joins stop here, not at the heap. */
  renderMemory: 100_000,
} as const;

/** One problem with a template or its variables: which locale, which field, which line of it, and what. */
export interface TemplateProblem {
  locale: string;
  field: string;
  line?: number;
  message: string;
}

/** `content.fr.title line 2: undefined variable: name`: how the API reports a problem. */
export function describeProblem(problem: TemplateProblem): string {
  const line = problem.line === undefined ? '' : ` line ${problem.line}`;
  return `content.${problem.locale}.${problem.field}${line}: ${problem.message}`;
}

/** Every Liquid field of a locale's content with its source, in a fixed order (problems come out in it). */
export function liquidFields(content: LocaleContent): Array<[field: string, source: string]> {
  const fields: Array<[string, string]> = [];
  for (const field of TEXT_FIELDS) {
    const source = content[field];
    if (source !== undefined) fields.push([field, source]);
  }
  for (const [key, source] of Object.entries(content.data ?? {})) fields.push([`data.${key}`, source]);
  return fields;
}
