import { TOPICS } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import type { DeliveryLedgerDocument, LedgerDevice } from '@herald/mongo';
import { tallyOf } from './ledger-rows.ts';
import { alreadyApplied, positionOf, type Projection } from './projection.ts';

/** The batch's sequence number: batch ids are `<notification>:<provider>:<sequence>` (deliveryBatchId). */
export function batchSequence(batchId: string): number | undefined {
  const last = batchId.slice(batchId.lastIndexOf(':') + 1);
  return /^\d+$/.test(last) ? Number(last) : undefined;
}

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
      const sequence = batchSequence(id);
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
        ...(sequence === undefined ? {} : { sequence }),
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
