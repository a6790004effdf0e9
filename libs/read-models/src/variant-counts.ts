import { parseBatchId, type DeliveryReportedV2, type NotificationOpenedV2 } from '@herald/events';
import { isSent } from './ledger-rows.ts';
import { ZERO_COUNTS, type DeliveryCounts } from './notification-document.ts';

/** The buckets of an A/B send's counts besides its variants' names. */
export const HOLDOUT = 'holdout';
export const REMAINDER = 'remainder';

/** A batch of an A/B send's remainder (fan-out `<id>#remainder`, after its decision). */
export function isRemainderBatch(batchId: string): boolean {
  return parseBatchId(batchId)?.fanoutId.endsWith('#remainder') === true;
}

/** Where a reported device counts: its variant, the holdout, or the remainder; undefined outside an A/B send. */
function bucketOf(batchId: string, line: { outcome: string; variant?: string | undefined }): string | undefined {
  if (line.outcome === 'held_out') return HOLDOUT;
  if (isRemainderBatch(batchId)) return REMAINDER;
  return line.variant;
}

/**
 * An A/B send's counts by variant after one report (pure): every reported
 * device is targeted in its bucket, and counted under its outcome. Undefined
 * when the report has no line of an A/B send (the document is left as is).
 */
export function variantCountsAfterReport(byVariant: Record<string, DeliveryCounts> | undefined, report: DeliveryReportedV2['data']): Record<string, DeliveryCounts> | undefined {
  let next: Record<string, DeliveryCounts> | undefined;
  for (const line of report.results) {
    const bucket = bucketOf(report.batch_id, line);
    if (bucket === undefined) continue;
    next ??= { ...byVariant };
    const counts = { ...(next[bucket] ?? ZERO_COUNTS) };
    counts.targeted += 1;
    counts[line.outcome] = (counts[line.outcome] ?? 0) + 1;
    if (isSent(line.outcome)) counts.sent += 1;
    next[bucket] = counts;
  }
  return next;
}

/** An A/B send's counts by variant after an open (pure): under the variant its delivery named (the remainder's under `remainder`). */
export function variantCountsAfterOpen(byVariant: Record<string, DeliveryCounts> | undefined, open: NotificationOpenedV2['data']): Record<string, DeliveryCounts> | undefined {
  const bucket = open.batch_id !== undefined && isRemainderBatch(open.batch_id) ? REMAINDER : open.variant;
  if (bucket === undefined) return undefined;
  const counts = byVariant?.[bucket] ?? ZERO_COUNTS;
  return { ...byVariant, [bucket]: { ...counts, opened: counts.opened + 1 } };
}
