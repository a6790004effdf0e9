import type { Platform, Provider } from '@herald/events';

/** Devices per batch: the providers' own multicast unit (FCM sendEach takes 500). */
export const BATCH_SIZE = 500;
/**
 * Bytes one encoded DeliveryBatch record may take. The broker refuses a
 * record batch over `message.max.bytes` (default 1,048,588): 900 KB leaves
 * room for the record and request framing and the headers.
 */
export const BATCH_BYTE_BUDGET = 900_000;

/** Counts per provider; `webpush` and `hms` are absent in tasks written before their lanes (read as 0). */
export type PerProvider = { apns: number; fcm: number; webpush?: number | undefined; hms?: number | undefined };
/** A device as a batch needs it. */
export interface BatchRow {
  device_id: string;
  token: string;
  platform: Platform;
}
export interface BatchDevice {
  device_id: string;
  token: string;
}
/** A batch as the fan-out plans it; the shell wraps it in a DeliveryBatch event. */
export interface PlannedBatch {
  provider: Provider;
  sequence: number;
  devices: BatchDevice[];
}

export interface CutLimits {
  /** Devices per batch (≤ BATCH_SIZE). */
  maxDevices: number;
  /** Bytes the `devices` array of one batch may take once JSON-encoded (the budget minus the envelope's own size). */
  maxDeviceBytes: number;
  /** What a device's own content adds to the batch (a template send's), counted with its bytes; absent: nothing. */
  extraBytes?: ((deviceId: string) => number) | undefined;
}

/** The provider a platform's devices are sent through (a `web` device: its subscription's push service, RFC 8030; a `huawei` device: Push Kit). */
export function providerFor(platform: Platform): Provider {
  if (platform === 'ios') return 'apns';
  if (platform === 'android') return 'fcm';
  if (platform === 'huawei') return 'hms';
  return 'webpush';
}

/** `counts` with one more device of `provider` (pure). */
export function countOne(counts: PerProvider, provider: Provider): void {
  counts[provider] = (counts[provider] ?? 0) + 1;
}

/** What one device adds to the encoded `devices` array: its JSON object and a comma (exact for JSON.stringify). */
export function encodedDeviceBytes(device: BatchDevice): number {
  return Buffer.byteLength(JSON.stringify(device)) + 1;
}

/**
 * Cuts rows (in the order read) into batches per provider, numbered from
 * `start` (pure). A batch is cut at `maxDevices` devices or before the
 * device that would take its encoded devices past `maxDeviceBytes`, so
 * every batch fits under the broker's message limit by construction,
 * whatever the tokens' length. Partly filled batches are cut at the end:
 * the same rows and `start` always give the same batches.
 */
export function cutBatches(rows: readonly BatchRow[], start: PerProvider, limits: CutLimits): { batches: PlannedBatch[]; next: PerProvider } {
  const next: PerProvider = { ...start };
  const batches: PlannedBatch[] = [];
  const pending: Record<Provider, { devices: BatchDevice[]; bytes: number }> = { apns: { devices: [], bytes: 2 }, fcm: { devices: [], bytes: 2 }, webpush: { devices: [], bytes: 2 }, hms: { devices: [], bytes: 2 } };
  const cut = (provider: Provider) => {
    const open = pending[provider];
    if (open.devices.length === 0) return;
    batches.push({ provider, sequence: next[provider] ?? 0, devices: open.devices });
    countOne(next, provider);
    pending[provider] = { devices: [], bytes: 2 };
  };
  for (const row of rows) {
    const provider = providerFor(row.platform);
    const device = { device_id: row.device_id, token: row.token };
    const bytes = encodedDeviceBytes(device) + (limits.extraBytes === undefined ? 0 : limits.extraBytes(row.device_id));
    const open = pending[provider];
    if (open.devices.length >= limits.maxDevices || (open.devices.length > 0 && open.bytes + bytes > limits.maxDeviceBytes)) cut(provider);
    pending[provider].devices.push(device);
    pending[provider].bytes += bytes;
  }
  cut('apns');
  cut('fcm');
  cut('webpush');
  cut('hms');
  return { batches, next };
}
