import { parseBatchId } from '@herald/events';
import type { DeliveryCounts } from './notification-document.ts';
import type { DeliveryLedgerDocument, LedgerDevice } from './delivery-ledger.ts';

export type Outcome = LedgerDevice['outcome'];
export type Tally = Partial<Record<Outcome, number>>;

/** One device's receipt for one notification: the API's per-notification and per-device receipts rows. */
export interface ReceiptRow extends LedgerDevice {
  notification_id: string;
  batch_id: string;
  provider: DeliveryLedgerDocument['provider'];
  reported_at: string;
}

/** The provider a batch id names (deliveryBatchId). */
export function batchProvider(batchId: string): DeliveryLedgerDocument['provider'] | undefined {
  return parseBatchId(batchId)?.provider;
}

/** Expands a ledger document (one batch) into its per-device receipt rows, in the batch's order. */
export function receiptRows(doc: DeliveryLedgerDocument): ReceiptRow[] {
  return doc.devices.map((device) => ({
    ...device,
    notification_id: doc.notification_id,
    batch_id: doc._id,
    provider: doc.provider,
    reported_at: doc.reported_at,
  }));
}

/** Rows of a batch that a receipts query counts: all of them, or those with one outcome. */
export function tallied(tally: Tally, outcome: Outcome | undefined): number {
  if (outcome !== undefined) return tally[outcome] ?? 0;
  return Object.values(tally).reduce((sum, count) => sum + (count ?? 0), 0);
}

export interface BatchSlice {
  batch_id: string;
  /** Index among the batch's matching rows where the page starts, and how many to take. */
  skip: number;
  take: number;
}

/**
 * Which batches, and which of their matching rows, make up a page of
 * receipts when batches are read in `batches` order: only those batches'
 * devices need reading, however many batches the notification has.
 */
export function planReceiptPage(batches: ReadonlyArray<{ _id: string; tally: Tally }>, outcome: Outcome | undefined, skip: number, limit: number): { count: number; slices: BatchSlice[] } {
  let count = 0;
  const slices: BatchSlice[] = [];
  for (const batch of batches) {
    const rows = tallied(batch.tally, outcome);
    const start = Math.max(0, skip - count);
    const wanted = skip + limit - count - start;
    if (rows > start && wanted > 0) slices.push({ batch_id: batch._id, skip: start, take: Math.min(rows - start, wanted) });
    count += rows;
  }
  return { count, slices };
}

/** Whether an outcome is a provider's answer (counted in `sent`). */
export function isSent(outcome: Outcome): boolean {
  return outcome === 'delivered' || outcome === 'failed' || outcome === 'invalid';
}

/** The outcome counts a notification's ledger documents add up to (what its `counts` must equal). */
export function ledgerCounts(docs: Iterable<DeliveryLedgerDocument>): Omit<DeliveryCounts, 'targeted'> {
  const counts: Omit<DeliveryCounts, 'targeted'> = { sent: 0, delivered: 0, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, deferred: 0, opened: 0 };
  for (const doc of docs) {
    for (const device of doc.devices) {
      // A cancelled, expired, capped, held-out or (still) deferred device was not handed to a provider.
      if (isSent(device.outcome)) counts.sent += 1;
      // held_out, like the notification's counts, only once an A/B send holds a device out.
      counts[device.outcome] = (counts[device.outcome] ?? 0) + 1;
      if (device.opened_at !== undefined) counts.opened += 1;
    }
  }
  return counts;
}

/** The ledger line of one device in one batch, if the batch holds it. */
export function ledgerDevice(doc: DeliveryLedgerDocument, deviceId: string): LedgerDevice | undefined {
  return doc.devices.find((device) => device.device_id === deviceId);
}
