import type { DeliveryLedgerDocument, LedgerDevice } from '@herald/read-models';
import type { Static } from 'typebox';
import type { Receipt } from '../schemas/receipts.ts';

export type ReceiptView = Static<typeof Receipt>;

/** One device's line of one batch as a receipt: delivered_at is when its batch's outcome was recorded. */
export function receiptView(doc: Pick<DeliveryLedgerDocument, 'notification_id' | 'provider' | 'reported_at'>, device: LedgerDevice): ReceiptView {
  return {
    notification_id: doc.notification_id,
    device_id: device.device_id,
    provider: doc.provider,
    outcome: device.outcome,
    reason: device.reason ?? null,
    attempts: device.attempts ?? null,
    ...(device.rule === undefined ? {} : { rule: device.rule }),
    ...(device.until === undefined ? {} : { until: device.until }),
    ...(device.variant === undefined ? {} : { variant: device.variant }),
    ...(device.locale === undefined ? {} : { locale: device.locale }),
    delivered_at: device.outcome === 'delivered' ? doc.reported_at : null,
    opened_at: device.opened_at ?? null,
    reported_at: doc.reported_at,
  };
}
