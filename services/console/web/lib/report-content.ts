import type { Notification } from './draft.ts';
import { durationSeconds, templateOf } from './draft-variants.ts';

// What the report shows of a template, localised or A/B send (pure).
type Counts = NonNullable<Notification['counts_by_variant']>[string];

/** The rows in reading order: the variants as the request names them, then any other name, then holdout and remainder. */
export function variantRows(byVariant: Record<string, Counts>, names: readonly string[]): Array<[string, Counts]> {
  const order = [...names, ...Object.keys(byVariant).filter((name) => !names.includes(name) && name !== 'holdout' && name !== 'remainder'), 'holdout', 'remainder'];
  return order.filter((name) => byVariant[name] !== undefined).map((name) => [name, byVariant[name]!]);
}

/** When the decision is due: decide_after from when the send was due (send_at, else dispatch). */
export function decisionDue(request: Record<string, unknown> | undefined, dispatchedAt: string | null | undefined): string | undefined {
  const test = request?.test as { decide_after?: unknown } | undefined;
  const seconds = typeof test?.decide_after === 'string' ? durationSeconds(test.decide_after) : undefined;
  const from = typeof request?.send_at === 'string' ? request.send_at : dispatchedAt;
  if (seconds === undefined || from === undefined || from === null) return undefined;
  return new Date(Date.parse(from) + seconds * 1000).toISOString();
}

/**
 * The report's heading and lead: a template send's title is the template's
 * default Liquid source, so it is named by its template instead; an A/B
 * send by its variants.
 */
export function headingOf(data: Pick<Notification, 'title' | 'body' | 'request'>): { title: string; lead: string } {
  const request = data.request as Record<string, unknown> | undefined;
  const template = templateOf(request?.template);
  if (template !== undefined) {
    const given = request?.variables ?? template.variables;
    const variables = given === undefined ? '' : ` with ${JSON.stringify(given)}`;
    return { title: `Template ${template.version === '' ? template.name : `${template.name}@${template.version}`}`, lead: `Each device got the template's content in its language, rendered${variables} and its own values.` };
  }
  if (Array.isArray(request?.variants)) {
    const names = (request.variants as Array<{ name?: unknown }>).map((variant) => String(variant.name));
    return { title: data.title === '' ? `A/B test ${names.join(' / ')}` : data.title, lead: `${data.body} (variant ${names[0] ?? 'A'} of an A/B test of ${names.join(', ')}: results below)` };
  }
  return { title: data.title === '' ? '(no title)' : data.title, lead: data.body };
}
