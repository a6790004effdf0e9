import type { Static } from 'typebox';
import { HOLDOUT, REMAINDER, ZERO_COUNTS, type DeliveryCounts, type LocaleCounts, type NotificationDocument } from '@herald/read-models';
import type { ReportDecision, ReportLocale, ReportVariant } from '../schemas/console-reads.ts';

type VariantRow = Static<typeof ReportVariant>;
type LocaleRow = Static<typeof ReportLocale>;
type DecisionRow = Static<typeof ReportDecision>;

/** Opens per delivered device (the measure VariantDecided decides by); null when nothing was delivered. */
export const openRate = (opened: number, delivered: number): number | null => (delivered === 0 ? null : opened / delivered);

const funnel = (counts: Pick<DeliveryCounts, 'targeted' | 'delivered' | 'failed' | 'invalid' | 'opened'>) => ({
  targeted: counts.targeted,
  delivered: counts.delivered,
  failed: counts.failed + counts.invalid,
  opened: counts.opened,
  open_rate: openRate(counts.opened, counts.delivered),
});

const kindOf = (name: string): VariantRow['kind'] => (name === HOLDOUT ? 'holdout' : name === REMAINDER ? 'remainder' : 'variant');
const ORDER: Record<VariantRow['kind'], number> = { variant: 0, remainder: 1, holdout: 2 };

/** The variant names an A/B send's request gave (its options as stored), or undefined for another send. */
function requestedVariants(options: NotificationDocument['options']): string[] | undefined {
  const variants = options?.variants;
  if (!Array.isArray(variants)) return undefined;
  return variants.flatMap((variant: unknown) => (typeof variant === 'object' && variant !== null && typeof (variant as { name?: unknown }).name === 'string' ? [(variant as { name: string }).name] : []));
}

/**
 * An A/B send's funnel per variant (pure), from the notification's counts by
 * variant: the variants by name (each one requested, at zero before its
 * first report), then the remainder and the holdout. The holdout is sent
 * nothing, so its targeted devices are its `held_out` and its opens (of the
 * app, not of a push) are not Herald's to know.
 */
export function variantRows(doc: Pick<NotificationDocument, 'by_variant' | 'options'>): VariantRow[] | undefined {
  const requested = requestedVariants(doc.options);
  if (doc.by_variant === undefined && requested === undefined) return undefined;
  const byVariant: Record<string, DeliveryCounts> = { ...Object.fromEntries((requested ?? []).map((name) => [name, ZERO_COUNTS])), ...doc.by_variant };
  return Object.entries(byVariant)
    .map(([variant, counts]) => ({ variant, kind: kindOf(variant), ...funnel(counts), held_out: counts.held_out ?? 0 }))
    .sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || a.variant.localeCompare(b.variant));
}

/** The decision as a report shows it (pure); null while an A/B send with a test share waits for it, absent for any other send. */
export function decisionRow(doc: Pick<NotificationDocument, 'options' | 'decision' | 'decided_at'>): DecisionRow | null | undefined {
  if (doc.decision === undefined) return doc.options?.test === undefined || requestedVariants(doc.options) === undefined ? undefined : null;
  const { chosen, best, significant, reason, p_value } = doc.decision;
  return { winner: chosen, best, significant, reason, p_value: p_value ?? null, decided_at: doc.decided_at ?? null };
}

/** A template or localised send's funnel per content locale (pure), most targeted first. */
export function localeRows(byLocale: Readonly<Record<string, LocaleCounts>> | undefined): LocaleRow[] | undefined {
  if (byLocale === undefined) return undefined;
  return Object.entries(byLocale)
    .map(([locale, counts]) => ({ locale, ...funnel(counts) }))
    .sort((a, b) => b.targeted - a.targeted || a.locale.localeCompare(b.locale));
}
