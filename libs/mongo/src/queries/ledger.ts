import type { DeliveryLedgerDocument, LedgerDevice } from '@herald/read-models';
import type { ReadModelRegistry } from '../read-models.ts';
import { scope, type PageWindow } from './devices.ts';

/** The questions the API asks of the `delivery_ledger` read model: receipts (its indexes: libs/read-models delivery-ledger.ts). */
export class LedgerQueries {
  readonly #readModels: ReadModelRegistry;

  constructor(readModels: ReadModelRegistry) {
    this.#readModels = readModels;
  }

  #ledger() {
    return this.#readModels.collection<DeliveryLedgerDocument>('delivery_ledger');
  }

  /** A notification's batches with their tallies only, in receipt order (APNs then FCM, by partition and sequence). */
  async batchTallies(projectId: string, notificationId: string): Promise<Array<Pick<DeliveryLedgerDocument, '_id' | 'tally'>>> {
    return (await this.#ledger())
      .find({ notification_id: notificationId, project_id: projectId }, { projection: { _id: 1, tally: 1 } })
      .sort({ provider: 1, partition: 1, sequence: 1, _id: 1 })
      .toArray();
  }

  /** A notification's batch ids, in receipt order. */
  async batchIds(projectId: string, notificationId: string): Promise<string[]> {
    const docs = await (await this.#ledger())
      .find({ notification_id: notificationId, project_id: projectId }, { projection: { _id: 1 } })
      .sort({ provider: 1, partition: 1, sequence: 1, _id: 1 })
      .toArray();
    return docs.map((doc) => doc._id);
  }

  /** The project's batch with this id, or null. */
  async batch(projectId: string, batchId: string): Promise<DeliveryLedgerDocument | null> {
    return (await this.#ledger()).findOne({ _id: batchId, project_id: projectId });
  }

  /** The batches with these ids (those that exist), in no particular order. */
  async batches(batchIds: readonly string[]): Promise<DeliveryLedgerDocument[]> {
    if (batchIds.length === 0) return [];
    return (await this.#ledger()).find({ _id: { $in: [...batchIds] } }).toArray();
  }

  /**
   * A page of a device's batches, newest first (with a given outcome for
   * it, when asked), and how many there are. With an outcome the store
   * adapter matches the device's line (StoreAdapter.pageWithElement).
   */
  async deviceReceiptPage(projectId: string, deviceId: string, outcome: LedgerDevice['outcome'] | undefined, page: PageWindow): Promise<{ count: number; docs: DeliveryLedgerDocument[] }> {
    const [ledger, store] = await Promise.all([this.#ledger(), this.#readModels.store()]);
    const filter = { project_id: projectId, 'devices.device_id': deviceId };
    const sort = { reported_at: -1, _id: 1 } as const;
    if (outcome !== undefined) return store.pageWithElement(ledger, { filter, field: 'devices', element: { device_id: deviceId, outcome }, sort, ...page });
    const [count, docs] = await Promise.all([store.count(ledger, filter), ledger.find(filter).sort(sort).skip(page.skip).limit(page.limit).toArray()]);
    return { count, docs };
  }

  /** The notifications of a device's latest batches (newest first, at most `batches` batches read), in the project (any: `undefined`). */
  async recentNotificationIds(projectId: string | undefined, deviceId: string, batches: number): Promise<string[]> {
    const docs = await (await this.#ledger())
      .find({ ...scope(projectId), 'devices.device_id': deviceId }, { projection: { notification_id: 1, reported_at: 1 } })
      .sort({ reported_at: -1 })
      .limit(batches)
      .toArray();
    return docs.map((doc) => doc.notification_id);
  }

  /** Every batch of a notification, whatever its project (benchmarks add up a send's outcomes with it). */
  async notificationBatches(notificationId: string): Promise<DeliveryLedgerDocument[]> {
    return (await this.#ledger()).find({ notification_id: notificationId }).toArray();
  }

  /** Every batch of the ledger, one by one (benchmarks add up many sends in one pass: one query, not one per notification). */
  async *everyBatch(): AsyncGenerator<DeliveryLedgerDocument> {
    yield* (await this.#ledger()).find({});
  }

  /** The batches of a notification that hold a device (indexed by {notification_id, devices.device_id}, multikey). */
  async deviceBatches(notificationId: string, deviceId: string): Promise<DeliveryLedgerDocument[]> {
    return (await this.#ledger()).find({ notification_id: notificationId, 'devices.device_id': deviceId }).toArray();
  }
}
