import type { Notification } from '../lib/draft.ts';
import { durationSeconds } from '../lib/draft-variants.ts';
import { formatCount, formatShare, formatTime } from '../lib/format.ts';
import { TableScroll } from '../components/ui.tsx';

type Counts = NonNullable<Notification['counts_by_variant']>[string];
type Decision = NonNullable<Notification['decision']>;

const REASONS: Record<Decision['reason'], string> = {
  significant: 'the best open rate won significantly (p < 0.05)',
  not_significant: 'no variant won significantly: the fallback was sent',
  no_data: 'a variant delivered nothing or no device opened any: the fallback was sent',
};

/** The rows in reading order: the variants as the request names them, then any other name, then holdout and remainder. */
export function variantRows(byVariant: Record<string, Counts>, names: readonly string[]): Array<[string, Counts]> {
  const order = [...names, ...Object.keys(byVariant).filter((name) => !names.includes(name) && name !== 'holdout' && name !== 'remainder'), 'holdout', 'remainder'];
  return order.filter((name) => byVariant[name] !== undefined).map((name) => [name, byVariant[name]!]);
}

/** When the decision is due: decide_after from when the send was due (send_at, else dispatch). */
function decisionDue(request: Record<string, unknown> | undefined, dispatchedAt: string | null | undefined): string | undefined {
  const test = request?.test as { decide_after?: unknown } | undefined;
  const seconds = typeof test?.decide_after === 'string' ? durationSeconds(test.decide_after) : undefined;
  const from = typeof request?.send_at === 'string' ? request.send_at : dispatchedAt;
  if (seconds === undefined || from === undefined || from === null) return undefined;
  return new Date(Date.parse(from) + seconds * 1000).toISOString();
}

/** An A/B send's results: each variant's counts and open rate, the holdout, the remainder, and the decision once made. */
export function VariantResults({ notification }: { notification: Notification }) {
  const byVariant = notification.counts_by_variant;
  const request = notification.request as Record<string, unknown> | undefined;
  const variants = Array.isArray(request?.variants) ? (request.variants as Array<{ name?: unknown }>) : undefined;
  if (byVariant === undefined && variants === undefined) return null;
  const names = (variants ?? []).map((variant) => String(variant.name));
  const rows = variantRows(byVariant ?? {}, names);
  const holdout = typeof request?.holdout_percent === 'number' ? request.holdout_percent : 0;
  const decision = notification.decision;
  const due = decisionDue(request, notification.dispatched_at);
  return (
    <section aria-labelledby="variants-heading" data-testid="variant-results">
      <h2 id="variants-heading">A/B test</h2>
      <p class="muted">
        {names.length} variants; holdout {holdout} % (gets nothing, reported held_out: Herald knows no opens for it, your analytics join it by its receipts).
      </p>
      {rows.length === 0 ? (
        <p class="muted">No device counted yet.</p>
      ) : (
        <TableScroll label="Counts by variant">
          <table data-testid="variant-counts">
            <thead>
              <tr>
                <th scope="col">Variant</th>
                <th scope="col" class="num">Targeted</th>
                <th scope="col" class="num">Delivered</th>
                <th scope="col" class="num">Failed</th>
                <th scope="col" class="num">Held out</th>
                <th scope="col" class="num">Opened</th>
                <th scope="col" class="num">Open rate</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([name, counts]) => (
                <tr key={name} data-testid={`variant-row-${name}`}>
                  <th scope="row">{name === 'holdout' ? 'Holdout' : name === 'remainder' ? `Remainder${decision === undefined ? '' : ` (${decision.chosen})`}` : name}</th>
                  <td class="num">{formatCount(counts.targeted)}</td>
                  <td class="num">{formatCount(counts.delivered)}</td>
                  <td class="num">{formatCount(counts.failed + counts.invalid)}</td>
                  <td class="num">{formatCount(counts.held_out ?? 0)}</td>
                  <td class="num">{formatCount(counts.opened)}</td>
                  <td class="num">{counts.delivered === 0 ? '–' : formatShare(counts.opened, counts.delivered)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {decision !== undefined ? (
        <p data-testid="variant-decision">
          Decided: <strong>{decision.chosen}</strong> went to the remainder; {REASONS[decision.reason]}
          {decision.p_value === undefined ? '' : ` (best ${decision.best}, p = ${decision.p_value.toPrecision(2)}`}
          {decision.p_value !== undefined && decision.interval !== undefined ? `, difference ${(decision.difference ?? 0).toFixed(3)} in [${decision.interval.map((value) => value.toFixed(3)).join(', ')}])` : decision.p_value === undefined ? '' : ')'}
          .
        </p>
      ) : request?.test !== undefined ? (
        <p class="muted" data-testid="variant-decision">
          Not decided yet{due === undefined ? '' : `: due ${formatTime(due)}`}; then the best open rate (if significant) goes to the remainder.
        </p>
      ) : (
        <p class="muted" data-testid="variant-decision">
          No test share: every device outside the holdout took part, nothing is decided; compare the rates above.
        </p>
      )}
    </section>
  );
}
