import { explainAudience, resolveAudience, type ZoneFilter } from '@herald/audience';
import type { FanoutTaskV2, NotificationRequestedV2 } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import type { DeviceDocument } from '@herald/read-models';
import { deviceAt, evidenceOf, opensOf, receiptsOf } from './device-timeline.ts';
import type { ReachExplanation } from './types.ts';

/**
 * What a provider's (or Herald's) reason means the project or the device
 * lacks, said so a person can fix it: a web device is not reached without
 * the project's VAPID keys or a live subscription.
 */
const MISSING: Readonly<Record<string, string>> = {
  NoWebPushKeys: 'the project has no Web Push (VAPID) keys: herald providers webpush <project-id> --generate --subject mailto:…',
  VapidKeyUnknown: 'the project no longer has the VAPID key this browser subscribed with: the page must subscribe again with the current key',
  VapidRejected: "the push service refused the project's VAPID authorization: check its subject and keys (herald providers webpush <project-id> --show)",
  SubscriptionGone: "the browser's push subscription is gone (unsubscribed or expired): the page must subscribe again and register the new subscription",
  SubscriptionUnknown: "Herald had no stored Web Push subscription for the device when it sent",
  NoApnsCredentials: 'the project has no APNs credentials: herald providers apns <project-id> …',
  NoFcmCredentials: 'the project has no FCM credentials: herald providers fcm <project-id> …',
  NoHmsCredentials: 'the project has no Huawei Push Kit credential: herald providers hms <project-id> --app-id … --client-id … --client-secret-file …',
  OAuthClientRefused: "Huawei's OAuth server refused the project's Push Kit client id or secret: set them again with herald providers hms <project-id> …",
  InvalidTokenForm: 'the device registered a token Huawei Push Kit can never accept: the app must register its current HMS push token',
};

/** The reason, and what it means is missing when Herald knows (pure). */
export function reasonSaid(reason: string | null | undefined): string {
  if (reason === null || reason === undefined) return '';
  const missing = MISSING[reason];
  return missing === undefined ? ` (${reason})` : ` (${reason}: ${missing})`;
}

/** Whether the targets can only name devices by id or token (typed targets): then the fan-out had tasks on their partitions only. */
function namesDevicesOnly(targets: NotificationRequestedV2['data']['targets']): boolean {
  return targets.every((target) => typeof target !== 'string' && ('device_id' in target || 'token' in target));
}

/** What the log says about one notification and one device: the input of `explainReach`. */
export interface ReachFacts {
  projectId: string;
  deviceId: string;
  /** The device-events partition the device's events are on. */
  partition: number;
  request: NotificationRequestedV2;
  /** The notification's events (notification-events, its key). */
  notificationRecords: readonly ConsumedEvent[];
  /** Step 0 of every fan-out task of the notification on the device's partition (one per slot of a local-time send). */
  tasks: readonly FanoutTaskV2[];
  /** The device's events (device-events, its key), in log order. */
  deviceRecords: readonly ConsumedEvent[];
  /** A topic's name for a person (default: its id). */
  topicName?: (id: string) => string;
}

function deviceView(device: DeviceDocument): NonNullable<ReachExplanation['device_at_send']> {
  return { status: device.status, token: device.token, topics: device.topics, metadata: device.metadata, external_id: device.external_id ?? null, timezone: device.timezone ?? null };
}

const zonesOf = (task: FanoutTaskV2): ZoneFilter | undefined => (task.data.slot === undefined ? undefined : { zones: task.data.slot.zones, includeUnset: task.data.slot.include_unset });

/**
 * Why a device was or was not reached by a notification (pure), decided
 * from the log only: its receipt if it has one; otherwise cancelled,
 * expired, not fanned out yet; otherwise the device as its events left it
 * at the send's recorded audience position (`wait_for` of its partition's
 * fan-out task) judged by the audience predicate with reasons.
 */
export function explainReach(facts: ReachFacts): ReachExplanation {
  const { deviceId, notificationRecords } = facts;
  const receipts = receiptsOf(notificationRecords, deviceId).map(({ receipt }) => receipt);
  const opened = opensOf(notificationRecords, deviceId)[0]?.event.occurred_at ?? null;
  const cancelled = notificationRecords.find((record) => record.event.type === 'NotificationCancelled');
  const expired = notificationRecords.find((record) => record.event.type === 'NotificationExpired');
  const dispatched = notificationRecords.some((record) => record.event.type === 'NotificationDispatched');
  const answer = (reason: ReachExplanation['reason'], summary: string, more: Partial<ReachExplanation> = {}): ReachExplanation => ({
    device_id: deviceId,
    reached: reason === 'reached',
    reason,
    summary,
    audience_position: null,
    device_at_send: null,
    clauses: [],
    inactive_since: null,
    evidence: null,
    registered_at: null,
    receipts,
    opened_at: opened,
    ...more,
  });

  // The device at the send's audience position, judged by the audience predicate (when a task recorded it).
  const judged = facts.tasks.map((task) => {
    const device = deviceAt(facts.deviceRecords, deviceId, task.data.wait_for);
    return { task, device, verdict: device === undefined ? undefined : explainAudience(device, facts.projectId, task.data.audience, zonesOf(task), facts.topicName) };
  });
  const chosen = judged.find((item) => item.verdict?.matches === true) ?? judged[0];
  const position = chosen === undefined ? null : { partition: facts.partition, offset: chosen.task.data.wait_for };
  const judgement: Partial<ReachExplanation> =
    chosen?.device === undefined ? { audience_position: position } : { audience_position: position, device_at_send: deviceView(chosen.device), clauses: chosen.verdict?.clauses ?? [] };

  const last = receipts.at(-1);
  if (last !== undefined && (last.outcome === 'delivered' || last.outcome === 'failed' || last.outcome === 'invalid')) {
    // Sent: the provider's answer decides (delivered: reached; the token refused, or retries exhausted: not).
    const reason = last.outcome === 'delivered' ? 'reached' : last.outcome === 'invalid' ? 'provider_rejected' : 'send_failed';
    return answer(reason, `${last.provider} ${last.outcome}${reasonSaid(last.reason)} at ${last.at}${opened === null ? '' : `; opened at ${opened}`}`, judgement);
  }
  if (cancelled !== undefined) return answer('cancelled', `the notification was cancelled at ${cancelled.event.occurred_at} before it was sent to this device`, judgement);
  if (expired?.event.type === 'NotificationExpired') return answer('expired', `the notification expired at ${expired.event.occurred_at}: ${expired.event.data.reason}`, judgement);

  if (chosen === undefined) {
    if (!dispatched) return answer('not_dispatched_yet', 'the notification has not been fanned out yet (scheduled, or in the fan-out queue)');
    if (!namesDevicesOnly(facts.request.data.targets)) {
      return answer('audience_unknown', "dispatched, with no receipt and no fan-out task on this device's partition: its plain-string targets named no device there, or its fan-out records (a work topic, kept 7 days) are gone, and with them where its audience was taken");
    }
    // Fanned out, with no task on this device's partition: its targets name only devices that live elsewhere.
    const audience = resolveAudience(facts.projectId, facts.request.data.targets, () => undefined);
    const device = deviceAt(facts.deviceRecords, deviceId);
    const verdict = device === undefined ? undefined : explainAudience(device, facts.projectId, audience, undefined, facts.topicName);
    return answer('not_matched', "not matched by any target: the send's targets name no device on this device's partition", { clauses: verdict?.clauses ?? [] });
  }

  const { device, verdict } = chosen;
  if (device === undefined || verdict === undefined) {
    const first = facts.deviceRecords.find((record) => record.event.type === 'DeviceRegistered' && record.offset >= chosen.task.data.wait_for);
    return answer('registered_after_send', `registered after the send's audience position (device-events[${facts.partition}] offset ${first?.offset ?? '?'} ≥ ${chosen.task.data.wait_for})`, {
      ...judgement,
      registered_at: first === undefined ? null : { topic: first.topic, partition: first.partition, offset: first.offset },
    });
  }
  const more = judgement;
  if (device.status === 'inactive') {
    const since = device.deactivation?.at ?? null;
    const deactivatedBy = facts.deviceRecords.filter((record) => record.offset < chosen.task.data.wait_for && record.event.type === 'DeviceDeactivated').at(-1);
    if (device.deactivation?.provider === undefined) {
      return answer('unregistered', `unregistered by the project at ${since ?? '?'} (before the send)`, { ...more, inactive_since: since });
    }
    const evidence = deactivatedBy === undefined ? null : (evidenceOf(deactivatedBy) ?? null);
    return answer('inactive', `inactive since ${since ?? '?'}: ${device.deactivation.provider} answered ${device.deactivation.reason}${MISSING[device.deactivation.reason] === undefined ? '' : ` (${MISSING[device.deactivation.reason]})`}`, { ...more, inactive_since: since, evidence });
  }
  if (!verdict.matches) {
    if (verdict.failed.includes('zone')) return answer('not_matched', `not in this local-time send's time zones (device zone ${device.timezone ?? 'unset'})`, more);
    return answer('not_matched', `not matched by any target: ${verdict.clauses.map((clause) => clause.detail).join('; ')}`, more);
  }
  if (last?.outcome === 'cancelled') return answer('cancelled', `its batch was not sent: the notification was cancelled (${last.provider})`, more);
  if (last?.outcome === 'capped') return answer('capped', `not sent: the project's frequency cap (${last.rule ?? last.reason ?? '?'}) dropped it (${last.provider})`, more);
  if (last?.outcome === 'deferred') return answer('deferred', `deferred by ${last.rule ?? last.reason ?? '?'}: not sent yet, it goes out at ${last.until ?? '?'} (${last.provider})`, more);
  if (last?.outcome === 'expired') return answer('expired', `its batch was not sent: the campaign's max_duration ran out at ${last.at} (${last.provider})`, more);
  return answer('awaiting_report', 'in the audience: no outcome reported yet (queued or being sent)', more);
}
