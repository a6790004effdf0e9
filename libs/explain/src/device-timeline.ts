import type { ConsumedEvent } from '@herald/kafka';
import { type DeviceDocument, evolveDevice } from '@herald/read-models';
import type { Evidence, LogPlace, Receipt, TimelineEntry } from './types.ts';

const placeOf = (record: ConsumedEvent): LogPlace => ({ topic: record.topic, partition: record.partition, offset: record.offset });

/** The device as its events up to (not including) `before` leave it, with the read model's own evolve. */
export function deviceAt(records: readonly ConsumedEvent[], deviceId: string, before = Number.POSITIVE_INFINITY): DeviceDocument | undefined {
  return records.filter((record) => record.offset < before && streamOf(record) === deviceId).reduce<DeviceDocument | undefined>(evolveDevice, undefined);
}

function streamOf(record: ConsumedEvent): string {
  return record.event.stream_id;
}

export function evidenceOf(record: ConsumedEvent): Evidence | undefined {
  const { event } = record;
  if (event.type !== 'DeviceDeactivated') return undefined;
  return { provider: event.data.provider, reason: event.data.reason, provider_timestamp: event.data.provider_timestamp ?? null, notification_id: event.data.notification_id ?? null };
}

/** One device event as a timeline entry, given the device before it and after it (pure). */
function deviceEntry(record: ConsumedEvent, before: DeviceDocument | undefined, after: DeviceDocument | undefined): TimelineEntry | undefined {
  const { event } = record;
  const base = { at: event.occurred_at, log: placeOf(record) };
  switch (event.type) {
    case 'DeviceRegistered': {
      if (before === undefined) return { ...base, kind: 'registered', summary: `registered (${event.data.platform})` };
      if (before.status === 'inactive') return { ...base, kind: 'reactivated', summary: `registered again: active after ${before.deactivation?.reason ?? 'inactive'}` };
      if (before.token !== event.data.token) return { ...base, kind: 'token_refreshed', summary: 'token refreshed (same device id, new token)' };
      return { ...base, kind: 'registered', summary: 'registered again (same token)' };
    }
    case 'MetadataUpdated': {
      const set = Object.entries(event.data.set).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
      const unset = event.data.unset.map((key) => `-${key}`);
      return { ...base, kind: 'metadata_changed', summary: `metadata ${[...set, ...unset].join(', ') || 'unchanged'}` };
    }
    case 'DeviceDeactivated': {
      const evidence = evidenceOf(record)!;
      if (after?.status !== 'inactive' || before?.status === 'inactive') {
        return { ...base, kind: 'deactivation_ignored', summary: `${evidence.provider} ${evidence.reason} not applied (older than the last registration, or already inactive)`, evidence };
      }
      return { ...base, kind: 'deactivated', summary: `deactivated: ${evidence.provider} answered ${evidence.reason}`, evidence };
    }
    case 'DeviceUnregistered':
      return { ...base, kind: 'unregistered', summary: 'unregistered by the project (DELETE)' };
    case 'DeviceUnlinked':
      return { ...base, kind: 'unlinked', summary: `unlinked from user ${JSON.stringify(before?.external_id ?? null)}` };
    default:
      return undefined;
  }
}

/** This device's receipts in a notification's events (DeliveryReported results naming it). */
export function receiptsOf(records: readonly ConsumedEvent[], deviceId: string): Array<{ record: ConsumedEvent; receipt: Receipt }> {
  return records.flatMap((record) => {
    const { event } = record;
    if (event.type !== 'DeliveryReported') return [];
    return event.data.results
      .filter((result) => result.device_id === deviceId)
      .map((result) => ({
        record,
        receipt: {
          notification_id: event.data.notification_id,
          batch_id: event.data.batch_id,
          provider: event.data.provider,
          outcome: result.outcome,
          reason: result.reason ?? null,
          attempts: result.attempts ?? null,
          ...(result.rule === undefined ? {} : { rule: result.rule }),
          ...(result.until === undefined ? {} : { until: result.until }),
          at: event.occurred_at,
        },
      }));
  });
}

export function opensOf(records: readonly ConsumedEvent[], deviceId: string): ConsumedEvent[] {
  return records.filter((record) => record.event.type === 'NotificationOpened' && record.event.data.device_id === deviceId);
}

/**
 * A device's timeline (pure): its own events (device-events, folded with
 * the read model's evolve to tell a refresh from a reactivation), then its
 * receipts and opens from the notifications' events, in time order.
 */
export function deviceTimeline(deviceRecords: readonly ConsumedEvent[], notificationRecords: readonly ConsumedEvent[], deviceId: string): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  let state: DeviceDocument | undefined;
  for (const record of deviceRecords) {
    if (streamOf(record) !== deviceId) continue;
    const after = evolveDevice(state, record);
    const entry = deviceEntry(record, state, after);
    if (entry !== undefined) entries.push(entry);
    state = after;
  }
  for (const { record, receipt } of receiptsOf(notificationRecords, deviceId)) {
    const reason = receipt.reason === null ? '' : ` (${receipt.reason})`;
    entries.push({ at: receipt.at, kind: 'receipt', summary: `${receipt.provider}: ${receipt.outcome}${reason}`, log: placeOf(record), notification_id: receipt.notification_id, receipt });
  }
  for (const record of opensOf(notificationRecords, deviceId)) {
    entries.push({ at: record.event.occurred_at, kind: 'opened', summary: 'opened', log: placeOf(record), notification_id: record.event.stream_id });
  }
  // Stable: events of one partition keep their log order when stamped alike.
  return entries.map((entry, index) => ({ entry, index })).sort((a, b) => a.entry.at.localeCompare(b.entry.at) || a.index - b.index).map(({ entry }) => entry);
}
