import { apnsPayloadBytes, buildApnsPayload } from './apns-payload.ts';
import { buildFcmMessage, fcmPayloadBytes } from './fcm-payload.ts';
import { buildHmsMessage, HMS_MAX_PAYLOAD_BYTES, hmsPayloadBytes } from './hms-payload.ts';
import { PROVIDER_PAYLOAD_LIMIT_BYTES, type PushMessage } from './push-message.ts';
import { buildWebPushPayload, WEB_PUSH_PLAINTEXT_LIMIT_BYTES, webPushPayloadBytes } from './webpush-payload.ts';

export type ProviderName = 'apns' | 'fcm' | 'webpush' | 'hms';

/**
 * Problems that would make a provider refuse this message, one sentence each
 * (naming the field and the rule) for the API's 422; empty when it fits.
 * Pass the real notification id or one of the same length (UUIDv7: 36 characters).
 */
export function fitsProviderLimits(message: PushMessage, providers: readonly ProviderName[] = ['apns', 'fcm', 'webpush', 'hms']): string[] {
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
  if (providers.includes('webpush')) {
    const bytes = webPushPayloadBytes(buildWebPushPayload(message));
    const webLimit = WEB_PUSH_PLAINTEXT_LIMIT_BYTES;
    if (bytes > webLimit) problems.push(`notification must fit in ${webLimit} bytes as a Web Push plaintext (it takes ${bytes}; encryption adds 103 to reach the push services' 4096)`);
  }
  if (providers.includes('hms')) {
    // Push Kit's `data` is a JSON string, so each quote in it is escaped: many data pairs can overflow here and nowhere else.
    const bytes = hmsPayloadBytes(buildHmsMessage(message));
    if (bytes > HMS_MAX_PAYLOAD_BYTES) problems.push(`notification must fit in ${HMS_MAX_PAYLOAD_BYTES} bytes as a Push Kit message (it takes ${bytes})`);
  }
  return problems;
}
