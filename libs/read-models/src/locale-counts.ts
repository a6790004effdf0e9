import type { DeliveryReportedV2, NotificationOpenedV2 } from '@herald/events';
import { ZERO_OUTCOMES, type OutcomeCounts } from './outcome-counts.ts';

/** A locale's funnel: devices that got its content, their outcomes and the opens recorded. */
export interface LocaleCounts extends OutcomeCounts {
  targeted: number;
}

export const ZERO_LOCALE_COUNTS: LocaleCounts = { targeted: 0, ...ZERO_OUTCOMES };

/**
 * A template or localised send's counts by content locale after one report
 * (pure): each line naming a locale (`default` when the device had none of
 * its own) is targeted there and counted under its outcome. Deferred lines
 * wait for their release's report, as the report's timeline does. Undefined
 * when no line names a locale (the document is left as is).
 */
export function localeCountsAfterReport(byLocale: Readonly<Record<string, LocaleCounts>> | undefined, results: DeliveryReportedV2['data']['results']): Record<string, LocaleCounts> | undefined {
  let next: Record<string, LocaleCounts> | undefined;
  for (const line of results) {
    if (line.locale === undefined || line.outcome === 'deferred' || line.outcome === 'held_out') continue;
    next ??= { ...byLocale };
    const counts = { ...(next[line.locale] ?? ZERO_LOCALE_COUNTS) };
    counts.targeted += 1;
    counts[line.outcome] += 1;
    next[line.locale] = counts;
  }
  return next;
}

/** After an open (pure): counted under the locale its delivery named; undefined when it named none. */
export function localeCountsAfterOpen(byLocale: Readonly<Record<string, LocaleCounts>> | undefined, open: NotificationOpenedV2['data']): Record<string, LocaleCounts> | undefined {
  if (open.locale === undefined) return undefined;
  const counts = byLocale?.[open.locale] ?? ZERO_LOCALE_COUNTS;
  return { ...byLocale, [open.locale]: { ...counts, opened: counts.opened + 1 } };
}
