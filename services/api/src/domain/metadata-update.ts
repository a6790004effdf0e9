import { createEvent, type HeraldEvent } from '@herald/events';
import { type DeviceDocument, mergeMetadata } from '@herald/read-models';
import { DEVICE_LIMITS } from './device-limits.ts';

export type MetadataPatch = Record<string, string | null>;

/** What the device-facing metadata route changes: metadata (merged), the device's locale (canonical), or both. */
export interface MetadataChange {
  metadata?: MetadataPatch | undefined;
  locale?: string | undefined;
}

export type MetadataPlan =
  | { kind: 'update'; events: HeraldEvent[]; updated: number }
  /** Refused, nothing is written: a device would keep too many keys, or the write is too large in all. */
  | { kind: 'refused'; problem: string };

/**
 * One MetadataUpdated per matching device (pure). The answer says only how
 * many devices changed: the caller has no API key, so it learns nothing
 * about any device (tokens, identifiers, other metadata).
 */
export function planMetadataUpdate(
  devices: ReadonlyArray<Pick<DeviceDocument, '_id' | 'project_id' | 'metadata'>>,
  patch: MetadataPatch,
  correlationId: string | undefined,
  now: Date,
  locale?: string,
): MetadataPlan {
  const set: Record<string, string> = {};
  const unset: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) unset.push(key);
    else set[key] = value;
  }
  // The keys each device will keep, merged as the projector merges them.
  const largest = Math.max(0, ...devices.map((device) => Object.keys(mergeMetadata(device.metadata, set, unset)).length));
  if (largest > DEVICE_LIMITS.mapEntries) {
    return { kind: 'refused', problem: `metadata would leave a device with ${largest} keys; a device keeps at most ${DEVICE_LIMITS.mapEntries}` };
  }
  const writeBytes = Buffer.byteLength(JSON.stringify(patch)) * devices.length;
  if (writeBytes > DEVICE_LIMITS.metadataWriteBytes) {
    return {
      kind: 'refused',
      problem: `metadata × ${devices.length} matching devices would write ${writeBytes} bytes; one request writes at most ${DEVICE_LIMITS.metadataWriteBytes}`,
    };
  }
  const events = devices.map((device) =>
    createEvent('MetadataUpdated', { device_id: device._id, set, unset, ...(locale === undefined ? {} : { locale }) }, { project_id: device.project_id, correlation_id: correlationId, now }),
  );
  return { kind: 'update', events, updated: events.length };
}
