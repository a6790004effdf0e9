import { parseBatchId, TOPICS } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import { tallyOf } from './ledger-rows.ts';
import { alreadyApplied, positionOf, type Projection, type ProjectedDocument } from './projection.ts';
import type { IndexDescription } from '@herald/mongo';

/** One device's line in a delivery batch. */
export interface LedgerDevice {
  device_id: string;
  outcome: 'delivered' | 'failed' | 'invalid' | 'cancelled' | 'expired';
  /** Provider's reason code when not delivered. */
  reason?: string;
  /** Sends tried for this device (absent when the report did not say). */
  attempts?: number;
  opened_at?: string;
}

/**
 * The delivery ledger: one document per delivery batch (up to 500 devices),
 * `_id` = the batch id. Per batch, not per device, so a 1M campaign writes
 * ~2,000 documents. Opens, counts and per-device receipts are answered from it.
 */
export interface DeliveryLedgerDocument extends ProjectedDocument {
  notification_id: string;
  provider: 'apns' | 'fcm';
  /** The device-events partition whose fan-out task planned the batch, and its sequence number there (from the batch id). */
  partition?: number;
  sequence?: number;
  devices: LedgerDevice[];
  /** Devices per outcome in this batch: receipts page through batches without reading their devices. */
  tally?: Partial<Record<LedgerDevice['outcome'], number>>;
  reported_at: string;
}

/** The indexes this read model's queries need (README "Indexes (query shapes)"). */
export const LEDGER_INDEXES: readonly IndexDescription[] = [
    // The open check: which batch of a notification holds a device (multikey on MongoDB).
    { key: { notification_id: 1, 'devices.device_id': 1 }, name: 'by_notification_device' },
    // A notification's receipts, batch by batch in send order.
    { key: { notification_id: 1, provider: 1, partition: 1, sequence: 1, _id: 1 }, name: 'by_notification_batch_v2' },
    // A device's receipts, newest first (multikey).
    { key: { project_id: 1, 'devices.device_id': 1, reported_at: -1 }, name: 'by_project_device_reported' },
];



/**
 * The delivery ledger, one document per batch. A batch's first report is
 * final: a batch re-sent after a sender crash is reported again, and the
 * notification counts count it once, so the ledger keeps the first report
 * too and both always agree. An open marks its device (the open event names
 * the batch; the API resolved it when it checked the device was a recipient).
 */
export function evolveLedger(state: DeliveryLedgerDocument | undefined, record: ConsumedEvent, id: string): DeliveryLedgerDocument | undefined {
  const { event } = record;
  if (alreadyApplied(state, record)) return state;
  if (state !== undefined && state.project_id !== event.project_id) return state;
  switch (event.type) {
    case 'DeliveryReported': {
      if (state !== undefined) return state;
      const { data } = event;
      const parts = parseBatchId(id);
      const devices = data.results.map(
        (result): LedgerDevice => ({
          device_id: result.device_id,
          outcome: result.outcome,
          ...(result.reason === undefined ? {} : { reason: result.reason }),
          ...(result.attempts === undefined ? {} : { attempts: result.attempts }),
        }),
      );
      return {
        _id: id,
        project_id: event.project_id,
        notification_id: data.notification_id,
        provider: data.provider,
        ...(parts?.partition === undefined ? {} : { partition: parts.partition }),
        ...(parts === undefined ? {} : { sequence: parts.sequence }),
        devices,
        tally: tallyOf(devices),
        reported_at: event.occurred_at,
        position: positionOf(record),
      };
    }
    case 'NotificationOpened': {
      if (state === undefined || state.notification_id !== event.data.notification_id) return state;
      const index = state.devices.findIndex((device) => device.device_id === event.data.device_id);
      const device = state.devices[index];
      if (device === undefined || device.opened_at !== undefined) return state;
      const devices = [...state.devices];
      devices[index] = { ...device, opened_at: event.occurred_at };
      return { ...state, devices, position: positionOf(record) };
    }
    default:
      return state;
  }
}

export const deliveryLedgerProjection: Projection<DeliveryLedgerDocument> = {
  indexes: LEDGER_INDEXES,
  name: 'delivery_ledger',
  topics: [TOPICS.notificationEvents],
  documentIds: ({ event }) => {
    switch (event.type) {
      case 'DeliveryReported':
        return [event.data.batch_id];
      case 'NotificationOpened':
        // Opens recorded before the ledger existed name no batch: counted, not marked.
        return event.data.batch_id === undefined ? [] : [event.data.batch_id];
      default:
        return [];
    }
  },
  evolve: evolveLedger,
};
