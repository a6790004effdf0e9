/**
 * Limits on what a device-facing call (no API key) may write. They bound
 * what one anonymous request can make Herald store, send to Kafka and fan
 * out — see docs/reference/device-endpoints.md. Worst cases they imply
 * (in bytes, with every character escaped in JSON; event-size.unit.test.ts):
 * a DeviceRegistered record ≤ ~860 KB, a MetadataUpdated record ≤ ~420 KB —
 * each under the broker's 1 MB message limit. A PATCH writes at most
 * `metadataWriteBytes` in all, whatever the number of devices it matches, so
 * one anonymous request cannot queue tens of MB ahead of everyone's writes.
 */
export const DEVICE_LIMITS = {
  /** Entries in a metadata or identifiers map, and in a device's merged metadata. */
  mapEntries: 64,
  keyLength: 64,
  valueLength: 1024,
  /** Devices one `identifier` may update; more is refused instead of fanned out. */
  identifierMatches: 100,
  topicsPerRegistration: 20,
  /** Topics the project creates (POST /api/v1/topics). */
  topicsPerProject: 10_000,
  /** Topics devices create, in a project that lets them: counted apart, so they never take the project's own room. */
  deviceTopicsPerProject: 1_000,
  /** Bytes one PATCH may write: the patch's JSON size × the devices it matches. */
  metadataWriteBytes: 1024 * 1024,
} as const;
