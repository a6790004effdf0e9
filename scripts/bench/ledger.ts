import { LedgerQueries, ReadModelRegistry, type Store } from '@herald/mongo';
import { type DeliveryLedgerDocument, ledgerCounts } from '@herald/read-models';

/**
 * The one place the bench reads the delivery ledger: one document per batch
 * (its devices and their outcomes), added up with the same `ledgerCounts`
 * the per-device receipts are served from.
 */
export async function readLedgerCounts(db: Store, notificationId: string): Promise<Record<string, number>> {
  const ledger = new LedgerQueries(new ReadModelRegistry(db, { cacheMs: 0 }));
  const { sent: _sent, opened: _opened, ...byOutcome } = ledgerCounts(await ledger.notificationBatches(notificationId));
  return byOutcome;
}

/** Devices handed to each provider (`sent`: cancelled, expired and the like were not), by the ledger batches' provider (pure). */
export function sentByProvider(docs: Iterable<DeliveryLedgerDocument>): Record<string, number> {
  const byProvider = new Map<string, DeliveryLedgerDocument[]>();
  for (const doc of docs) {
    const batches = byProvider.get(doc.provider);
    if (batches === undefined) byProvider.set(doc.provider, [doc]);
    else batches.push(doc);
  }
  return Object.fromEntries([...byProvider].map(([provider, batches]) => [provider, ledgerCounts(batches).sent]));
}

/** The notification's pushes sent per provider, from its ledger. */
export async function readLedgerSentByProvider(db: Store, notificationId: string): Promise<Record<string, number>> {
  return sentByProvider(await new LedgerQueries(new ReadModelRegistry(db, { cacheMs: 0 })).notificationBatches(notificationId));
}

/**
 * Per-outcome ledger totals of many notifications in one pass over the
 * ledger (one query, not one per notification: on the local store each
 * `find` by notification id is its own round trip). Notifications of
 * `ids` without a ledger document get no entry.
 */
export async function readLedgerCountsOf(db: Store, ids: ReadonlySet<string>): Promise<Map<string, Record<string, number>>> {
  const ledger = new LedgerQueries(new ReadModelRegistry(db, { cacheMs: 0 }));
  const byNotification = new Map<string, DeliveryLedgerDocument[]>();
  for await (const doc of ledger.everyBatch()) {
    if (!ids.has(doc.notification_id)) continue;
    const docs = byNotification.get(doc.notification_id);
    if (docs === undefined) byNotification.set(doc.notification_id, [doc]);
    else docs.push(doc);
  }
  return new Map(
    [...byNotification].map(([id, docs]) => {
      const { sent: _sent, opened: _opened, ...byOutcome } = ledgerCounts(docs);
      return [id, byOutcome];
    }),
  );
}

/** The notification's counts (GET /notifications/{id}) agree with the ledger: every outcome, and `sent` as their sum. */
export function countsMatchLedger(api: Readonly<Record<string, number>>, ledger: Readonly<Record<string, number>>): boolean {
  const outcomes = ['delivered', 'failed', 'invalid', 'cancelled', 'expired'];
  // Cancelled and expired devices were never handed to a provider: not in `sent`.
  const ledgerSent = Object.entries(ledger).reduce((sum, [outcome, n]) => (outcome === 'cancelled' || outcome === 'expired' ? sum : sum + n), 0);
  return (api.sent ?? 0) === ledgerSent && outcomes.every((outcome) => (api[outcome] ?? 0) === (ledger[outcome] ?? 0));
}
