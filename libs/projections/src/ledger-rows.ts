import type { DeliveryCounts, DeliveryLedgerDocument, LedgerDevice } from '@herald/mongo';

/** One device's receipt for one notification, as the per-device receipts API will serve it. */
export interface ReceiptRow extends LedgerDevice {
  notification_id: string;
  batch_id: string;
  provider: DeliveryLedgerDocument['provider'];
  reported_at: string;
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

/** The outcome counts a notification's ledger documents add up to (what its `counts` must equal). */
export function ledgerCounts(docs: Iterable<DeliveryLedgerDocument>): Omit<DeliveryCounts, 'targeted'> {
  const counts = { sent: 0, delivered: 0, failed: 0, invalid: 0, cancelled: 0, opened: 0 };
  for (const doc of docs) {
    for (const device of doc.devices) {
      counts.sent += 1;
      counts[device.outcome] += 1;
      if (device.opened_at !== undefined) counts.opened += 1;
    }
  }
  return counts;
}

/** The ledger line of one device in one batch, if the batch holds it. */
export function ledgerDevice(doc: DeliveryLedgerDocument, deviceId: string): LedgerDevice | undefined {
  return doc.devices.find((device) => device.device_id === deviceId);
}
