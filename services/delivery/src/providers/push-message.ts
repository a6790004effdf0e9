export type { PushMessage } from '@herald/push-payloads';

/** One recipient of a delivery batch. */
export interface DeviceTarget {
  device_id: string;
  token: string;
}

export type DeliveryOutcomeKind = 'delivered' | 'retryable' | 'rejected' | 'token-invalid';

/**
 * What one push attempt to one device came to:
 * - `delivered`: the provider accepted it;
 * - `retryable`: the provider or the network failed for now; try again later (after `retryAfterMs` if given);
 * - `rejected`: this notification will not be accepted as sent (bad payload, credentials, configuration);
 * - `token-invalid`: the device token is dead; the device should be deactivated.
 */
export interface ProviderOutcome {
  outcome: DeliveryOutcomeKind;
  /** The provider's reason code (`Unregistered`, `UNREGISTERED`, …) when not delivered. */
  reason?: string;
  retryAfterMs?: number;
  /** ISO 8601; when APNs says the token stopped being valid (410). */
  providerTimestamp?: string;
  /** `apns-id` or the FCM message name, when delivered. */
  providerMessageId?: string;
}

export type DeviceResult = { device_id: string } & ProviderOutcome;

/** `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3), in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
