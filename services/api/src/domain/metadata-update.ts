import { createEvent, type HeraldEvent } from '@herald/events';
import type { DeviceDocument } from '@herald/mongo';
import { toDeviceView, type DeviceView } from './device-registration.ts';

export type MetadataPatch = Record<string, string | null>;

/** Merge semantics: strings set keys, `null` removes them, other keys stay. */
export function mergeMetadata(current: Record<string, string>, patch: MetadataPatch): Record<string, string> {
  const merged = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** One MetadataUpdated per matching device, and the devices as they will read once projected. */
export function planMetadataUpdate(
  devices: readonly DeviceDocument[],
  patch: MetadataPatch,
  correlationId: string | undefined,
  now: Date,
): { events: HeraldEvent[]; devices: DeviceView[] } {
  const set: Record<string, string> = {};
  const unset: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) unset.push(key);
    else set[key] = value;
  }
  const at = now.toISOString();
  return {
    events: devices.map((device) =>
      createEvent('MetadataUpdated', { device_id: device._id, set, unset }, { project_id: device.project_id, correlation_id: correlationId, now }),
    ),
    devices: devices.map((device) => ({ ...toDeviceView(device), metadata: mergeMetadata(device.metadata, patch), updated_at: at })),
  };
}
