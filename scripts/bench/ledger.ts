import { ReadModelRegistry, type Db } from '@herald/mongo';

/**
 * The one place the bench reads the delivery ledger. Today that is the
 * receipts read model (one document per notification and device, with the
 * outcome DeliveryReported gave it); when the ledger becomes one document
 * per batch, only `readLedgerCounts` changes.
 */
export async function readLedgerCounts(db: Db, notificationId: string): Promise<Record<string, number>> {
  const receipts = await new ReadModelRegistry(db, { cacheMs: 0 }).collection('receipts');
  const rows = await receipts
    .aggregate<{ _id: string | null; n: number }>([{ $match: { notification_id: notificationId, outcome: { $exists: true } } }, { $group: { _id: '$outcome', n: { $sum: 1 } } }])
    .toArray();
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row._id ?? 'unknown'] = row.n;
  return counts;
}

/** The notification's counts (GET /notifications/{id}) agree with the ledger: every outcome, and `sent` as their sum. */
export function countsMatchLedger(api: Readonly<Record<string, number>>, ledger: Readonly<Record<string, number>>): boolean {
  const outcomes = ['delivered', 'failed', 'invalid'];
  const ledgerSent = Object.values(ledger).reduce((sum, n) => sum + n, 0);
  return (api.sent ?? 0) === ledgerSent && outcomes.every((outcome) => (api[outcome] ?? 0) === (ledger[outcome] ?? 0));
}
