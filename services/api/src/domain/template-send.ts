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
