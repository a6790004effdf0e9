import type { Static } from 'typebox';
import { NotFoundError } from '@herald/errors';
import type { ReadModelRegistry } from '@herald/mongo';
import type { DeliveryLedgerDocument, NotificationDocument, NotificationReportDocument } from '@herald/read-models';
import { csvLine } from '../domain/csv.ts';
import { receiptView } from '../domain/receipts.ts';
import { RECEIPT_CSV_COLUMNS, type notificationReportSchema } from '../schemas/console-reads.ts';
import type { AcceptedHere } from '../domain/just-sent.ts';

type ReportView = Static<(typeof notificationReportSchema)['response'][200]>['data'];

/** Ledger documents (batches of ≤ 500 devices) read at once while a CSV streams: bounds memory. */
const CSV_BATCHES_AT_ONCE = 4;

/** A notification's report (failures by reason, timeline) and its receipts as a CSV stream. */
export class NotificationReportService {
  readonly #readModels: ReadModelRegistry;
  readonly #accepted: AcceptedHere | undefined;

  constructor(deps: { readModels: ReadModelRegistry; accepted?: AcceptedHere }) {
    this.#readModels = deps.readModels;
    this.#accepted = deps.accepted;
  }

  /** In the read model, or accepted by this instance a moment ago (its report is then still empty). */
  async #requireNotification(projectId: string, id: string): Promise<void> {
    const notifications = await this.#readModels.collection<NotificationDocument>('notifications');
    if ((await notifications.findOne({ _id: id, project_id: projectId }, { projection: { _id: 1 } })) === null && this.#accepted?.find(projectId, id) === undefined) {
      throw new NotFoundError(`notification ${id} does not exist in project ${projectId}`);
    }
  }

  /** Empty lists until the first outcome is projected. */
  async report(projectId: string, id: string): Promise<ReportView> {
    await this.#requireNotification(projectId, id);
    const reports = await this.#readModels.collection<NotificationReportDocument>('notification_reports');
    const doc = await reports.findOne({ _id: id, project_id: projectId });
    return {
      failures: (doc?.failures ?? []).map(({ provider, outcome, reason, count }) => ({ provider, outcome, reason, count })),
      timeline: (doc?.timeline ?? []).map(({ at, span, delivered, failed, invalid, cancelled, opened }) => ({ at, span, delivered, failed, invalid, cancelled, opened })),
    };
  }

  /**
   * Checks the notification exists (so a 404 is still possible), then returns
   * the CSV lines to stream: the header, then every receipt in the receipts
   * endpoint's order. Batch ids are read first (sorted, without devices), then
   * each batch by `_id`, a few at a time, so memory holds a few batches.
   */
  async receiptsCsv(projectId: string, id: string): Promise<AsyncIterable<string>> {
    await this.#requireNotification(projectId, id);
    const ledger = await this.#readModels.collection<DeliveryLedgerDocument>('delivery_ledger');
    const batchIds = (await ledger.find({ notification_id: id, project_id: projectId }, { projection: { _id: 1 } }).sort({ provider: 1, partition: 1, sequence: 1, _id: 1 }).toArray()).map((doc) => doc._id);
    return (async function* lines() {
      yield csvLine(RECEIPT_CSV_COLUMNS);
      for (let start = 0; start < batchIds.length; start += CSV_BATCHES_AT_ONCE) {
        const docs = await Promise.all(batchIds.slice(start, start + CSV_BATCHES_AT_ONCE).map((batchId) => ledger.findOne({ _id: batchId, project_id: projectId })));
        for (const doc of docs) {
          if (doc === null) continue;
          let chunk = '';
          for (const device of doc.devices) {
            const row = receiptView(doc, device);
            chunk += csvLine(RECEIPT_CSV_COLUMNS.map((column) => row[column]));
          }
          yield chunk;
        }
      }
    })();
  }
}
