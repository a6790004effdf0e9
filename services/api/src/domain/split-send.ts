import { MAX_DECIDE_AFTER_SECONDS, parseIsoDuration } from '@herald/templates';

/** The A/B fields of a send as the route schema lets them through (each may still be of the wrong type when the schema already complained). */
export interface SplitChoice {
  title?: unknown;
  body?: unknown;
  template?: unknown;
  variables?: unknown;
  localizations?: unknown;
  send_at_local?: unknown;
  variants?: ReadonlyArray<{ name?: unknown; title?: unknown; body?: unknown; template?: unknown; variables?: unknown }> | undefined;
  holdout_percent?: unknown;
  test?: { decide_after?: unknown } | undefined;
  fallback?: unknown;
}

/**
 * What the route schema cannot say about an A/B send (pure): variants
 * instead of the send's own content, unique names, each variant literal
 * (title and body) or a template, a bounded `decide_after`, a `fallback`
 * among the variants; the holdout, test and fallback only with variants.
 */
export function splitProblems(input: SplitChoice | null | undefined): string[] {
  // A notification that is no object is the schema's to name.
  if (typeof input !== 'object' || input === null) return [];
  const problems: string[] = [];
  // The schema's problems are listed with these: a variant that is no object is checked as an empty one, never read into.
  type Variant = NonNullable<SplitChoice['variants']>[number];
  const variants = Array.isArray(input.variants) ? (input.variants as unknown[]).map((variant): Variant => (typeof variant === 'object' && variant !== null ? variant : {})) : undefined;
  if (variants === undefined) {
    for (const key of ['holdout_percent', 'test', 'fallback'] as const) if (input[key] !== undefined) problems.push(`notification.${key} needs notification.variants`);
    return problems;
  }
  for (const key of ['title', 'body', 'template', 'variables', 'localizations'] as const) {
    if (input[key] !== undefined) problems.push(`notification.${key}: an A/B send's content is in its variants`);
  }
  if (input.send_at_local !== undefined && input.test !== undefined) problems.push('notification.test: an A/B test decides once, so it cannot go with send_at_local (use send_at)');
  const names = new Set<unknown>();
  variants.forEach((variant, index) => {
    const at = `notification.variants[${index}]`;
    if (names.has(variant.name)) problems.push(`${at}.name: ${JSON.stringify(variant.name)} is used by another variant`);
    names.add(variant.name);
    const literal = variant.title !== undefined || variant.body !== undefined;
    if (variant.template !== undefined) {
      if (literal) problems.push(`${at}: give either template (with variables) or title and body, not both`);
    } else {
      if (variant.title === undefined || variant.body === undefined) problems.push(`${at}.title and ${at}.body are required unless ${at}.template is given`);
      if (variant.variables !== undefined) problems.push(`${at}.variables needs ${at}.template`);
    }
  });
  if (input.fallback !== undefined && !names.has(input.fallback)) problems.push(`notification.fallback: ${JSON.stringify(input.fallback)} is not the name of a variant`);
  if (input.fallback !== undefined && input.test === undefined) problems.push('notification.fallback needs notification.test (without a test nothing is decided)');
  const after = input.test?.decide_after;
  if (typeof after === 'string') {
    const seconds = parseIsoDuration(after);
    if (seconds === undefined) problems.push(`notification.test.decide_after: "${after}" is not an ISO 8601 duration of days, hours, minutes and seconds (PT2H, P1DT30M, PT90S)`);
    else if (seconds > MAX_DECIDE_AFTER_SECONDS) problems.push(`notification.test.decide_after: at most P7D`);
  }
  return problems;
}
