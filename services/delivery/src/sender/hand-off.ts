import { createEvent, retryBatchId, TOPICS, type DeliveryBatchV2, type Provider } from '@herald/events';
import type { Outgoing } from '@herald/kafka';
import type { AttemptedResult } from './retry.ts';

/** Each provider's retry lane (a work topic and consumer group of its own). */
export const RETRY_TOPIC: Record<Provider, string> = { apns: TOPICS.deliveriesApnsRetry, fcm: TOPICS.deliveriesFcmRetry, webpush: TOPICS.deliveriesWebpushRetry, hms: TOPICS.deliveriesHmsRetry };

/** A batch's results after one send: the final ones, to report now, and the devices still retryable. */
export function splitOpen(results: readonly AttemptedResult[]): { settled: AttemptedResult[]; open: AttemptedResult[] } {
  const settled: AttemptedResult[] = [];
  const open: AttemptedResult[] = [];
  for (const result of results) (result.outcome === 'retryable' ? open : settled).push(result);
  return { settled, open };
}

/** How long handed-off devices wait before their next send: the back-off, or the longest Retry-After the provider gave. */
export function retryWaitMs(open: readonly AttemptedResult[], backoffMs: number): number {
  return Math.max(backoffMs, ...open.map((result) => result.retryAfterMs ?? 0));
}

/**
 * The batch that carries a batch's still-retryable devices to the retry
 * lane: the same notification, message and deadline, the open devices only,
 * under `retryBatchId`, not sent again before `waitMs` from now. Written in
 * the chunk's transaction with the report of the settled devices, so the
 * partition moves on at once and a crash loses neither.
 */
export function handOffBatch(batch: DeliveryBatchV2, open: readonly AttemptedResult[], now: number, waitMs: number): Outgoing {
  const ids = new Set(open.map((result) => result.device_id));
  const sends = Math.max(1, ...open.map((result) => result.attempts));
  const event = createEvent(
    'DeliveryBatch',
    {
      ...batch.data,
      batch_id: retryBatchId(batch.data.batch_id),
      devices: batch.data.devices.filter((device) => ids.has(device.device_id)),
      retry: { after: new Date(now + waitMs).toISOString(), sends },
    },
    { project_id: batch.project_id, correlation_id: batch.correlation_id, now: new Date(now) },
  );
  return { event, topic: RETRY_TOPIC[batch.data.provider] };
}
