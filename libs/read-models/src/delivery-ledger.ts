import { parseBatchId, TOPICS, type Provider, type DeliveryOutcome, type DeliveryReportedV2, type ConsumedEvent } from '@herald/events';
import type { ProjectedDocument } from './documents.ts';
import { alreadyApplied, positionOf, type Projection } from './projection.ts';
import type { IndexDefinition } from './index-definition.ts';

/** One device's line in a delivery batch. */
export interface LedgerDevice {
  device_id: string;
  outcome: DeliveryOutcome;
  /** Provider's reason code when not delivered. */
  reason?: string;
  /** capped / deferred: the frequency cap or quiet hours that applied. */
  rule?: string;
  /** deferred: when it goes out. */
  until?: string;
  /** Sends tried for this device (absent when the report did not say). */
  attempts?: number;
  /** A template or localised send: the content locale the device got. */
  locale?: string;
  /** An A/B send: the variant the device got. */
  variant?: string;
  opened_at?: string;
}

/**
 * The delivery ledger: one document per delivery batch (up to 500 devices),
 * `_id` = the batch id. Per batch, not per device, so a 1M campaign writes
 * ~2,000 documents. Opens, counts and per-device receipts are answered from it.
 */
export interface DeliveryLedgerDocument extends ProjectedDocument {
  notification_id: string;
  provider: Provider;
  /** The device-events partition whose fan-out task planned the batch, and its sequence number there (from the batch id). */
  partition?: number;
  sequence?: number;
  devices: LedgerDevice[];
  /** Devices per outcome in this batch: receipts page through batches without reading their devices. */
  tally?: Partial<Record<LedgerDevice['outcome'], number>>;
  reported_at: string;
}

/** Devices per outcome in one batch. */
export function tallyOf(devices: readonly LedgerDevice[]): NonNullable<DeliveryLedgerDocument['tally']> {
  const tally: NonNullable<DeliveryLedgerDocument['tally']> = {};
  for (const device of devices) tally[device.outcome] = (tally[device.outcome] ?? 0) + 1;
  return tally;
}

/** The indexes this read model's queries need (docs/internals/indexes.md). */
export const LEDGER_INDEXES: readonly IndexDefinition[] = [
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
 * too and both always agree. The one exception is a deferred batch (a
 * frequency cap or quiet hours): the report of its release
 * (`settles_deferral`) replaces its `deferred` lines, once. An open marks its device (the open event names
 * the batch; the API resolved it when it checked the device was a recipient).
 */
export function evolveLedger(state: DeliveryLedgerDocument | undefined, record: ConsumedEvent, id: string): DeliveryLedgerDocument | undefined {
  const { event } = record;
  if (alreadyApplied(state, record)) return state;
  if (state !== undefined && state.project_id !== event.project_id) return state;
  switch (event.type) {
    case 'DeliveryReported': {
      const { data } = event;
      if (state !== undefined) return data.settles_deferral === true ? settleDeferral(state, data.results, event.occurred_at, positionOf(record)) : state;
      const parts = parseBatchId(id);
      const devices = data.results.map(ledgerLine);
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

function ledgerLine(result: DeliveryReportedV2['data']['results'][number]): LedgerDevice {
  return {
    device_id: result.device_id,
    outcome: result.outcome,
    ...(result.reason === undefined ? {} : { reason: result.reason }),
    ...(result.attempts === undefined ? {} : { attempts: result.attempts }),
    ...(result.rule === undefined ? {} : { rule: result.rule }),
    ...(result.until === undefined ? {} : { until: result.until }),
    ...(result.locale === undefined ? {} : { locale: result.locale }),
    ...(result.variant === undefined ? {} : { variant: result.variant }),
  };
}

/** A released deferred batch's report replaces the lines still `deferred` (a repeat of it finds none left and changes nothing). */
export function settleDeferral(state: DeliveryLedgerDocument, results: DeliveryReportedV2['data']['results'], at: string, position: DeliveryLedgerDocument['position']): DeliveryLedgerDocument {
  const settled = new Map(results.map((result) => [result.device_id, result]));
  let changed = false;
  const devices = state.devices.map((device) => {
    const result = settled.get(device.device_id);
    if (device.outcome !== 'deferred' || result === undefined) return device;
    changed = true;
    return ledgerLine(result);
  });
  if (!changed) return { ...state, position };
  return { ...state, devices, tally: tallyOf(devices), reported_at: at, position };
}

export const deliveryLedgerProjection: Projection<DeliveryLedgerDocument> = {
  indexes: LEDGER_INDEXES,
  name: 'delivery_ledger',
  // Fetched in bulk for a third of the notifications read model's wait: fewer fetches and inserts, still ahead of the counts it backs.
  // (100 ms before: while idle the broker answers every wait empty, and ten fetches a second were half the projector's idle requests.)
  fetch: { minBytes: 1_048_576, maxWaitMs: 333 },
  // A third of the topic's records (requests and dispatches are passed over undecoded).
  types: ['DeliveryReported', 'NotificationOpened'],
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
