import type { DeliveryBatchV2 } from '@herald/events';
import { buildWebPushPayload, webPushPlaintext, type PushMessage } from '@herald/push-payloads';
import type { Logger } from '@herald/log';
import type { DeviceResult, DeviceTarget } from '../providers/push-message.ts';
import type { WebPushTarget } from '../providers/webpush-client.ts';
import { WEBPUSH_REASONS } from '../providers/webpush-outcome.ts';
import type { WebPushProject } from './provider-clients.ts';

/** A web device's subscription as the devices read model keeps it (DeviceRegistered v2 `subscription`). */
export interface StoredSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  key_id: string;
}

/** Where the webpush sender finds subscriptions: the devices read model, one query per batch. */
export type SubscriptionLookup = (projectId: string, deviceIds: readonly string[]) => Promise<ReadonlyMap<string, StoredSubscription>>;

/**
 * Reasons of a web device Herald does not send to yet: the read model has
 * no subscription for it, or one whose endpoint is not the batch's (it is
 * behind a re-subscription the fan-out already saw). Both retryable: the
 * projector catches up within moments; sending to an older subscription
 * could deactivate a device that has just moved to a new one.
 */
export const SUBSCRIPTION_REASONS = { unknown: 'SubscriptionUnknown', changed: 'SubscriptionChanged' } as const;

/**
 * A batch's web devices joined with their stored subscriptions (pure): the
 * targets to send to, and the retryable results of the devices whose
 * subscription is not there or not the batch's endpoint.
 */
export function joinSubscriptions(
  devices: readonly DeviceTarget[],
  stored: ReadonlyMap<string, StoredSubscription>,
  messageOf?: (device: DeviceTarget) => PushMessage,
): { targets: WebPushTarget[]; waiting: DeviceResult[] } {
  const targets: WebPushTarget[] = [];
  const waiting: DeviceResult[] = [];
  for (const device of devices) {
    const subscription = stored.get(device.device_id);
    if (subscription === undefined) waiting.push({ device_id: device.device_id, outcome: 'retryable', reason: SUBSCRIPTION_REASONS.unknown });
    else if (subscription.endpoint !== device.token) waiting.push({ device_id: device.device_id, outcome: 'retryable', reason: SUBSCRIPTION_REASONS.changed });
    else targets.push({ device_id: device.device_id, endpoint: subscription.endpoint, p256dh: subscription.p256dh, auth: subscription.auth, key_id: subscription.key_id, message: messageOf?.(device) });
  }
  return { targets, waiting };
}

/** Whether a subscription names a VAPID key the project's keys (as this process read them) lack (pure). */
export function namesUnknownKey(project: Pick<WebPushProject, 'keys'>, subscriptions: Iterable<StoredSubscription>): boolean {
  const known = new Set(project.keys.keys.map((key) => key.id));
  for (const subscription of subscriptions) if (!known.has(subscription.key_id)) return true;
  return false;
}

/** Projects a VAPID refusal was logged for: once per project per process (bounded), not once per device or batch. */
const vapidWarned = new Set<string>();
const VAPID_WARNED_MAX = 10_000;

/** Logs a project's first VAPID refusal with what to fix (every push of the project fails the same way until it is fixed). */
export function warnVapidRejectedOnce(logger: Logger, projectId: string, keys: WebPushProject['keys'], results: readonly DeviceResult[]): void {
  if (vapidWarned.has(projectId) || !results.some((result) => result.reason === WEBPUSH_REASONS.vapid)) return;
  if (vapidWarned.size >= VAPID_WARNED_MAX) vapidWarned.clear();
  vapidWarned.add(projectId);
  logger.error(
    { project_id: projectId, subject: keys.subject, key_ids: keys.keys.map((key) => key.id) },
    `push services refuse this project's VAPID authorization (400/401/403): its pushes fail with VapidRejected. Check the subject is a mailto: or https: contact (herald providers webpush ${projectId} --show); a push service that blocked the subject or key needs a new one: herald providers webpush ${projectId} --generate --subject mailto:…, and pages that subscribe again with the new key`,
  );
}

/** Builds the plaintext once to check it can be (pure over the message, so a batch that never can fails without a send); throws as the builder does. */
export function checkWebPushPayload(message: PushMessage): PushMessage {
  webPushPlaintext(buildWebPushPayload(message));
  return message;
}

/**
 * The send to a set of a batch's web devices. Their subscriptions were read
 * once for the whole batch before (`stored`: one query by id, not one per
 * device); a later round of the retry loop asks again only for the devices
 * still missing. A failed re-read leaves them waiting (retryable), never
 * fails the batch.
 */
export function webPushSend(
  project: WebPushProject,
  batch: DeliveryBatchV2,
  lookup: SubscriptionLookup,
  stored: Map<string, StoredSubscription>,
  logger: Logger,
): (devices: readonly DeviceTarget[], message: PushMessage | ((device: DeviceTarget) => PushMessage)) => Promise<DeviceResult[]> {
  // Read just now, with the batch: their first send does not ask again.
  const readWithBatch = new Set(batch.data.devices.map((device) => device.device_id));
  return async (devices, message) => {
    const missing = devices.filter((device) => !readWithBatch.delete(device.device_id) && stored.get(device.device_id)?.endpoint !== device.token).map((device) => device.device_id);
    if (missing.length > 0) {
      try {
        for (const [id, subscription] of await lookup(batch.project_id, missing)) stored.set(id, subscription);
      } catch (error) {
        logger.warn({ err: error, batch_id: batch.data.batch_id, devices: missing.length }, 'web subscriptions could not be read: those devices are retried');
      }
    }
    // Per-device content: each target carries its device's message, and the whole batch goes in one call, as a literal one does.
    const { targets, waiting } = typeof message === 'function' ? joinSubscriptions(devices, stored, message) : joinSubscriptions(devices, stored);
    const sent = targets.length === 0 ? [] : await project.client.send(project.keys, targets, typeof message === 'function' ? undefined : message);
    warnVapidRejectedOnce(logger, batch.project_id, project.keys, sent);
    const byDevice = new Map([...sent, ...waiting].map((result) => [result.device_id, result]));
    return devices.map((device) => byDevice.get(device.device_id)!);
  };
}
