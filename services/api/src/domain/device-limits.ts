/**
 * Limits on what a device-facing call (no API key) may write. They bound
 * what one anonymous request can make Herald store, send to Kafka and fan
 * out — see "Device-facing endpoints" in the README. Worst cases they imply:
 * a DeviceRegistered event ≤ ~150 KB (token 4 KB, identifiers and metadata
 * 64 × (64 + 1,024) characters each, 20 topic ids), a MetadataUpdated event
 * ≤ ~75 KB; a PATCH writes at most 100 of those. The producer splits what it
 * sends into requests below the broker's message limit.
 */
export const DEVICE_LIMITS = {
  /** Entries in a metadata or identifiers map, and in a device's merged metadata. */
  mapEntries: 64,
  keyLength: 64,
  valueLength: 1024,
  /** Devices one `identifier` may update; more is refused instead of fanned out. */
  identifierMatches: 100,
  topicsPerRegistration: 20,
  topicsPerProject: 10_000,
} as const;

/** Keys a merge would leave on a device (pure): current keys, plus set ones, minus removed ones. */
export function mergedKeyCount(current: Readonly<Record<string, string>>, patch: Readonly<Record<string, string | null>>): number {
  const keys = new Set(Object.keys(current));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) keys.delete(key);
    else keys.add(key);
  }
  return keys.size;
}
