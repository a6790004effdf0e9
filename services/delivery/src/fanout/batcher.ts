import { createEvent, deliveryBatchId, type DeliveryBatchV1, type Provider } from '@herald/events';
import type { DeviceDocument } from '@herald/mongo';

export const BATCH_SIZE = 500;

export interface BatchContext {
  notificationId: string;
  projectId: string;
  message: DeliveryBatchV1['data']['message'];
  correlationId?: string | undefined;
  batchSize?: number;
  /** Where a resumed fan-out starts counting: the next sequence number and the devices already batched, per provider. */
  start?: { sequence: Record<Provider, number>; targeted: Record<Provider, number> } | undefined;
}

export function providerFor(platform: DeviceDocument['platform']): Provider {
  return platform === 'ios' ? 'apns' : 'fcm';
}

/**
 * Cuts a stream of devices into DeliveryBatch events of up to 500 per
 * provider. Sequence numbers count per provider from 0, so the same audience
 * read in the same order (by device id) yields the same batch ids: a fan-out
 * that restarts repeats batches senders already know.
 */
export function createBatcher(context: BatchContext) {
  const size = context.batchSize ?? BATCH_SIZE;
  const pending: Record<Provider, Array<{ device_id: string; token: string }>> = { apns: [], fcm: [] };
  const sequence: Record<Provider, number> = { ...(context.start?.sequence ?? { apns: 0, fcm: 0 }) };
  const targeted: Record<Provider, number> = { ...(context.start?.targeted ?? { apns: 0, fcm: 0 }) };

  const cut = (provider: Provider): DeliveryBatchV1 => {
    const devices = pending[provider];
    pending[provider] = [];
    const batch = createEvent(
      'DeliveryBatch',
      {
        batch_id: deliveryBatchId(context.notificationId, provider, sequence[provider]),
        notification_id: context.notificationId,
        provider,
        sequence: sequence[provider],
        message: context.message,
        devices,
      },
      { project_id: context.projectId, correlation_id: context.correlationId },
    );
    sequence[provider] += 1;
    return batch;
  };

  return {
    /** Adds a device; returns a full batch when one is ready. */
    add(device: Pick<DeviceDocument, '_id' | 'token' | 'platform'>): DeliveryBatchV1 | undefined {
      const provider = providerFor(device.platform);
      pending[provider].push({ device_id: device._id, token: device.token });
      targeted[provider] += 1;
      return pending[provider].length >= size ? cut(provider) : undefined;
    },
    /** The partly filled batches: at the end, and wherever the fan-out records its progress. */
    flush(): DeliveryBatchV1[] {
      return (['apns', 'fcm'] as const).filter((provider) => pending[provider].length > 0).map(cut);
    },
    get targeted(): Record<Provider, number> {
      return { ...targeted };
    },
    /** The next sequence number per provider (the batches cut so far, counting from `start`). */
    get batches(): Record<Provider, number> {
      return { ...sequence };
    },
  };
}
