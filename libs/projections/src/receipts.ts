import { TOPICS, type DeliveryReportedV1 } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import type { ReceiptDocument } from '@herald/mongo';
import { alreadyApplied, positionOf, type Projection } from './projection.ts';

type Result = DeliveryReportedV1['data']['results'][number];

/**
 * A batch report is applied to each of its (up to 500) devices: index its
 * results once per event instead of searching the list for every device.
 */
const resultIndex = new WeakMap<readonly Result[], Map<string, Result>>();
function resultFor(results: readonly Result[], deviceId: string): Result | undefined {
  let index = resultIndex.get(results);
  if (index === undefined) {
    index = new Map(results.map((result) => [result.device_id, result]));
    resultIndex.set(results, index);
  }
  return index.get(deviceId);
}

export function receiptId(notificationId: string, deviceId: string): string {
  return `${notificationId}:${deviceId}`;
}

/** The per-device ledger of a notification: its delivery outcome and when it was opened. */
export function evolveReceipt(state: ReceiptDocument | undefined, record: ConsumedEvent, id: string): ReceiptDocument | undefined {
  const { event } = record;
  if (alreadyApplied(state, record)) return state;
  if (state !== undefined && state.project_id !== event.project_id) return state;
  const [notificationId = '', deviceId = ''] = id.split(':');
  const base: ReceiptDocument = state ?? {
    _id: id,
    project_id: event.project_id,
    notification_id: notificationId,
    device_id: deviceId,
    position: positionOf(record),
  };
  switch (event.type) {
    case 'DeliveryReported': {
      const result = resultFor(event.data.results, deviceId);
      if (result === undefined) return state;
      const { reason: _previous, ...rest } = base;
      return {
        ...rest,
        outcome: result.outcome,
        ...(result.reason === undefined ? {} : { reason: result.reason }),
        reported_at: event.occurred_at,
        position: positionOf(record),
      };
    }
    case 'NotificationOpened':
      if (base.opened_at !== undefined) return { ...base, position: positionOf(record) };
      return { ...base, opened_at: event.occurred_at, position: positionOf(record) };
    default:
      return state;
  }
}

export const receiptsProjection: Projection<ReceiptDocument> = {
  name: 'receipts',
  topics: [TOPICS.notificationEvents],
  documentIds: ({ event }) => {
    switch (event.type) {
      case 'DeliveryReported':
        return event.data.results.map((result) => receiptId(event.data.notification_id, result.device_id));
      case 'NotificationOpened':
        return [receiptId(event.data.notification_id, event.data.device_id)];
      default:
        return [];
    }
  },
  evolve: evolveReceipt,
};
