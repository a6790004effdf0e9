import { apnsPayloadBytes, buildApnsPayload } from './apns-payload.ts';
import { buildFcmMessage, fcmPayloadBytes } from './fcm-payload.ts';
import { PROVIDER_PAYLOAD_LIMIT_BYTES, type PushMessage } from './push-message.ts';

export type ProviderName = 'apns' | 'fcm';

/**
 * Problems that would make a provider refuse this message, one sentence each
 * (naming the field and the rule) for the API's 422; empty when it fits.
 * Pass the real notification id or one of the same length (UUIDv7: 36 characters).
 */
export function fitsProviderLimits(message: PushMessage, providers: readonly ProviderName[] = ['apns', 'fcm']): string[] {
  const problems: string[] = [];
  const limit = PROVIDER_PAYLOAD_LIMIT_BYTES;
  if (providers.includes('apns')) {
    const bytes = apnsPayloadBytes(buildApnsPayload(message));
    if (bytes > limit) problems.push(`notification must fit in ${limit} bytes as an APNs payload (it takes ${bytes})`);
  }
  if (providers.includes('fcm')) {
    const bytes = fcmPayloadBytes(buildFcmMessage(message));
    if (bytes > limit) problems.push(`notification must fit in ${limit} bytes as an FCM message (it takes ${bytes})`);
  }
  return problems;
}
