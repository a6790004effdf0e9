import { isLocaleTag } from '@herald/templates';

/** The fields of a send that choose its content: literal (`title`, `body`, maybe `localizations`) or a template. */
export interface ContentChoice {
  title?: string | undefined;
  body?: string | undefined;
  template?: string | undefined;
  variables?: Record<string, unknown> | undefined;
  localizations?: Record<string, unknown> | undefined;
}

/**
 * What the route schema cannot say about a send's content (pure): either a
 * template or title and body, variables only with a template, localisations
 * only on literal content and keyed by locale tags.
 */
export function contentProblems(input: ContentChoice | undefined): string[] {
  if (input === undefined) return [];
  const problems: string[] = [];
  const literal = input.title !== undefined || input.body !== undefined;
  if (input.template !== undefined) {
    if (literal) problems.push('notification: give either template (with variables) or title and body, not both');
    if (input.localizations !== undefined) problems.push('notification.localizations is for literal content: a template has its own locales');
  } else {
    if (input.title === undefined || input.body === undefined) problems.push('notification.title and notification.body are required unless notification.template is given');
    if (input.variables !== undefined) problems.push('notification.variables needs notification.template');
  }
  for (const key of Object.keys(input.localizations ?? {})) {
    if (!isLocaleTag(key)) problems.push(`notification.localizations.${key}: not a locale tag (\`fr\`, \`fr-CA\`)`);
  }
  return problems;
}

/** Bytes a send's variables may take as JSON: they travel in its event, and every render reads them. */
export const VARIABLES_MAX_BYTES = 16_000;

/**
 * Problems with a send's variables as data (pure): bounded in size, and
 * keys a store can keep at every depth (a scheduled send stores its
 * request): not empty, no '.', not starting with '$'.
 */
export function variableProblems(variables: unknown): string[] {
  if (variables === undefined) return [];
  const bytes = Buffer.byteLength(JSON.stringify(variables));
  if (bytes > VARIABLES_MAX_BYTES) return [`notification.variables: ${bytes} bytes as JSON, more than ${VARIABLES_MAX_BYTES}`];
  const problems: string[] = [];
  const visit = (value: unknown, path: string) => {
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      const at = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
      if (!Array.isArray(value) && (key === '' || key.includes('.') || key.startsWith('$'))) problems.push(`${at}: a variable name may not be empty, hold '.' or start with '$'`);
      else visit(inner, at);
    }
  };
  visit(variables, 'notification.variables');
  return problems.slice(0, 10);
}

/** Bytes a send's event may take: the broker refuses a record batch over 1,048,588 (its default), less room for the framing. */
export const REQUEST_EVENT_MAX_BYTES = 1_000_000;

/**
 * A template send carries its template's version whole (up to 64 KB) and
 * its variables: with a body near the API's 1 MB limit, its event could pass
 * what the broker takes. Refused (422) before anything is published (pure).
 */
export function pinnedSizeProblems(event: { data: unknown }): string[] {
  const bytes = Buffer.byteLength(JSON.stringify(event));
  return bytes <= REQUEST_EVENT_MAX_BYTES ? [] : [`notification: with its template the send takes ${bytes} bytes, more than ${REQUEST_EVENT_MAX_BYTES}: send to fewer targets (a topic, a segment) or use a smaller template`];
}
