import { DeviceQueries, LedgerQueries, type ReadModelRegistry } from '@herald/mongo';
import { ledgerDevice, planReceiptPage, tallyOf, type DeliveryLedgerDocument, type LedgerDevice, type Outcome, type Tally } from '@herald/read-models';
import { NotFoundError } from '@herald/errors';
import { pageRequest, pagination, type Pagination } from '../domain/paging.ts';
import { receiptView, type ReceiptView } from '../domain/receipts.ts';

export interface ReceiptQuery {
  outcome?: Outcome | undefined;
  page?: number | undefined;
  limit?: number | undefined;
}

/** Delivery receipts from the delivery ledger (one document per batch): a notification's, or a device's. */
export class NotificationReceipts {
  readonly #ledger: LedgerQueries;
  readonly #devices: DeviceQueries;

  constructor(readModels: ReadModelRegistry) {
    this.#ledger = new LedgerQueries(readModels);
    this.#devices = new DeviceQueries(readModels);
  }

  /**
   * A notification's receipts (the caller has found it), batch by batch
   * (APNs then FCM, in sequence): each batch's tally says how many of its
   * rows match, so only the batches the page covers are read in full.
   */
  async ofNotification(projectId: string, id: string, query: ReceiptQuery): Promise<{ data: ReceiptView[]; pagination: Pagination }> {
    const batches = await this.#ledger.batchTallies(projectId, id);
    const untallied = batches.filter((batch) => batch.tally === undefined).map((batch) => batch._id);
    // Ledger documents written before tallies existed: count their devices once (a replay adds the tallies).
    const legacy = untallied.length === 0 ? new Map<string, Tally>() : new Map((await this.#ledger.batches(untallied)).map((doc) => [doc._id, tallyOf(doc.devices)]));
    const request = pageRequest(query);
    const plan = planReceiptPage(batches.map((batch) => ({ _id: batch._id, tally: batch.tally ?? legacy.get(batch._id) ?? {} })), query.outcome, request.skip, request.limit);
    const docs = await this.#ledger.batches(plan.slices.map((slice) => slice.batch_id));
    const byId = new Map(docs.map((doc) => [doc._id, doc]));
    const data = plan.slices.flatMap((slice) => {
      const doc = byId.get(slice.batch_id);
      if (doc === undefined) return [];
      const rows = doc.devices.filter((device) => query.outcome === undefined || device.outcome === query.outcome);
      return rows.slice(slice.skip, slice.skip + slice.take).map((device) => receiptView(doc, device));
    });
    return { data, pagination: pagination(request, plan.count, data.length) };
  }

  /** A device's receipts, newest first: one per batch (so per notification) that holds it. */
  async ofDevice(projectId: string, deviceId: string, query: ReceiptQuery): Promise<{ data: ReceiptView[]; pagination: Pagination }> {
    if (!(await this.#devices.deviceExists(projectId, deviceId))) {
      throw new NotFoundError(`device ${deviceId} does not exist in project ${projectId}`);
    }
    const request = pageRequest(query);
    const receipts = (docs: DeliveryLedgerDocument[]) =>
      docs.flatMap((doc) => {
        const device = ledgerDevice(doc, deviceId);
        return device === undefined || (query.outcome !== undefined && device.outcome !== query.outcome) ? [] : [receiptView(doc, device)];
      });
    const { count, docs } = await this.#ledger.deviceReceiptPage(projectId, deviceId, query.outcome, request);
    const data = receipts(docs);
    return { data, pagination: pagination(request, count, data.length) };
  }

  /**
   * A recipient is a device the notification was delivered to: the delivery
   * ledger (one document per batch) has a delivered line for it. Returns that
   * batch's id, which the open event carries so the ledger marks the open by
   * `_id`, and the line. Indexed by {notification_id, devices.device_id} (multikey).
   */
  async deliveredLine(notificationId: string, deviceId: string): Promise<{ batch_id: string; line: LedgerDevice } | undefined> {
    const batches = await this.#ledger.deviceBatches(notificationId, deviceId);
    for (const batch of batches) {
      const line = batch.devices.find((candidate) => candidate.device_id === deviceId && candidate.outcome === 'delivered');
      if (line !== undefined) return { batch_id: batch._id, line };
    }
    return undefined;
  }
}
