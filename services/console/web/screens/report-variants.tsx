import type { Notification } from '../lib/draft.ts';
import { decisionDue, variantRows } from '../lib/report-content.ts';
import { formatCount, formatShare, formatTime } from '../lib/format.ts';
import { TableScroll } from '../components/ui.tsx';

type Decision = NonNullable<Notification['decision']>;

const REASONS: Record<Decision['reason'], string> = {
  significant: 'the best open rate won significantly (p < 0.05)',
  not_significant: 'no variant won significantly: the fallback was sent',
  no_data: 'a variant delivered nothing or no device opened any: the fallback was sent',
};

/**
 * What GET …/report adds for these sends (docs/reference/api.md): typed
 * here, all optional, and the report taken as any object, so the page reads
 * them where the API (and the generated client) has them and does without
 * where it does not.
 */
export interface ContentReport {
  decision?: { winner?: string; decided_at?: string | null } | null;
  locales?: Array<{ locale: string; targeted: number; delivered: number; failed: number; opened: number; open_rate: number | null }>;
}

/** An A/B send's results: each variant's counts and open rate, the holdout, the remainder, and the decision (and when) once made. */
export function VariantResults({ notification, report: answer }: { notification: Notification; report?: object | undefined }) {
  const report = answer as ContentReport | undefined;
  const byVariant = notification.counts_by_variant;
  const request = notification.request as Record<string, unknown> | undefined;
  const variants = Array.isArray(request?.variants) ? (request.variants as Array<{ name?: unknown }>) : undefined;
  if (byVariant === undefined && variants === undefined) return null;
  const names = (variants ?? []).map((variant) => String(variant.name));
  const rows = variantRows(byVariant ?? {}, names);
  const holdout = typeof request?.holdout_percent === 'number' ? request.holdout_percent : 0;
  const decision = notification.decision;
  const due = decisionDue(request, notification.dispatched_at);
  const decidedAt = report?.decision?.decided_at ?? undefined;
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
          Decided{decidedAt === undefined ? '' : ` ${formatTime(decidedAt)}`}: <strong>{decision.chosen}</strong> went to the remainder; {REASONS[decision.reason]}
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

/** A template or localised send: the funnel per content locale (GET …/report `locales`), most targeted first. */
export function LocaleResults({ report }: { report?: object | undefined }) {
  const locales = (report as ContentReport | undefined)?.locales;
  if (locales === undefined || locales.length === 0) return null;
  return (
    <section aria-labelledby="locales-heading" data-testid="locale-results">
      <h2 id="locales-heading">By language</h2>
      <p class="muted">The content locale each device got (default: none of its own matched).</p>
      <TableScroll label="Counts by content locale">
        <table data-testid="locale-counts">
          <thead>
            <tr>
              <th scope="col">Locale</th>
              <th scope="col" class="num">Targeted</th>
              <th scope="col" class="num">Delivered</th>
              <th scope="col" class="num">Failed</th>
              <th scope="col" class="num">Opened</th>
              <th scope="col" class="num">Open rate</th>
            </tr>
          </thead>
          <tbody>
            {locales.map((row) => (
              <tr key={row.locale} data-testid={`locale-row-${row.locale}`}>
                <th scope="row">{row.locale}</th>
                <td class="num">{formatCount(row.targeted)}</td>
                <td class="num">{formatCount(row.delivered)}</td>
                <td class="num">{formatCount(row.failed)}</td>
                <td class="num">{formatCount(row.opened)}</td>
                <td class="num">{row.open_rate === null ? '–' : formatShare(row.opened, row.delivered)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

