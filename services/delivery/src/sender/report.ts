import { createEvent, type DeliveryBatchV2, type DeliveryReportedV2, type DeviceDeactivatedV2 } from '@herald/events';
import type { AttemptedResult } from './retry.ts';
import type { DeviceTarget } from '../providers/push-message.ts';

/**
 * The events a finished batch produces: one DeliveryReported with every
 * device's outcome, and a DeviceDeactivated per token the provider said is
 * dead. Still-retryable devices (deadline passed) are reported failed.
 */
export function batchReport(batch: DeliveryBatchV2, results: readonly AttemptedResult[], now = new Date()): { reported: DeliveryReportedV2; deactivated: DeviceDeactivatedV2[] } {
  const { data } = batch;
  const context = { project_id: batch.project_id, correlation_id: batch.correlation_id, now };
  // Per-device content (a template send, localisations): each line says the locale its device got, and a render error.
  const devices = data.contents === undefined ? undefined : new Map(data.devices.map((device) => [device.device_id, device]));
  const reported = createEvent(
    'DeliveryReported',
    {
      notification_id: data.notification_id,
      batch_id: data.batch_id,
      provider: data.provider,
      results: results.map((result) => ({
        device_id: result.device_id,
        outcome: result.outcome === 'delivered' ? 'delivered' : result.outcome === 'token-invalid' ? 'invalid' : 'failed',
        ...(result.outcome === 'delivered' ? {} : { reason: result.reason ?? (result.outcome === 'retryable' ? 'RetryDeadlineExceeded' : 'Rejected') }),
        // A device never sent (its content failed to render) has no attempt.
        ...(result.attempts > 0 ? { attempts: result.attempts } : {}),
        ...contentFields(devices?.get(result.device_id)),
      })),
      ...settles(batch),
    },
    context,
  );
  const deactivated = results
    .filter((result) => result.outcome === 'token-invalid')
    .map((result) =>
      createEvent(
        'DeviceDeactivated',
        {
          device_id: result.device_id,
          provider: data.provider,
          reason: result.reason ?? 'InvalidToken',
          notification_id: data.notification_id,
          ...(result.providerTimestamp === undefined ? {} : { provider_timestamp: result.providerTimestamp }),
        },
        context,
      ),
    );
  return { reported, deactivated };
}

/** The locale, A/B variant and render error of a device of a batch with per-device content. */
function contentFields(device: { locale?: string | undefined; variant?: string | undefined; error?: string | undefined } | undefined): { locale?: string; variant?: string; error?: string } {
  if (device === undefined) return {};
  return {
    ...(device.locale === undefined ? {} : { locale: device.locale }),
    ...(device.variant === undefined ? {} : { variant: device.variant }),
    ...(device.error === undefined ? {} : { error: device.error }),
  };
}

/** A batch of a cancelled notification, not sent: every device's outcome is `cancelled`. */
export function cancelledReport(batch: DeliveryBatchV2, now = new Date()): DeliveryReportedV2 {
  return unsentReport(batch, 'cancelled', undefined, now);
}

/** The reason an `expired` device carries in its receipt. */
export const MAX_DURATION_EXCEEDED = 'MaxDurationExceeded';

/** A batch whose notification's `max_duration` ran out before it was sent: every device's outcome is `expired`. */
export function expiredReport(batch: DeliveryBatchV2, now = new Date()): DeliveryReportedV2 {
  return unsentReport(batch, 'expired', MAX_DURATION_EXCEEDED, now);
}

/** Whether a batch's `expires_at` (its notification's max_duration deadline) has passed (pure). */
export function isExpired(batch: DeliveryBatchV2, now: number): boolean {
  return batch.data.expires_at !== undefined && now >= Date.parse(batch.data.expires_at);
}

function unsentReport(batch: DeliveryBatchV2, outcome: 'cancelled' | 'expired', reason: string | undefined, now: Date): DeliveryReportedV2 {
  const { data } = batch;
  return createEvent(
    'DeliveryReported',
    { notification_id: data.notification_id, batch_id: data.batch_id, provider: data.provider, results: data.devices.map((device) => ({ device_id: device.device_id, outcome, ...(reason === undefined ? {} : { reason }), ...(device.variant === undefined ? {} : { variant: device.variant }) })), ...settles(batch) },
    { project_id: batch.project_id, correlation_id: batch.correlation_id, now },
  );
}

/** Every device failed for one reason (no credentials, a client that cannot start). */
export function allFailed(devices: readonly DeviceTarget[], reason: string): AttemptedResult[] {
  return devices.map((device) => ({ device_id: device.device_id, outcome: 'rejected', reason, attempts: 1 }));
}

/** A batch released after a deferral (frequency cap, quiet hours): its report replaces the batch's `deferred` lines. */
function settles(batch: DeliveryBatchV2): { settles_deferral?: true } {
  return batch.data.deferral === undefined ? {} : { settles_deferral: true };
}
