import { createHash, hash } from 'node:crypto';
import type { ConsumedEvent } from '@herald/kafka';
import { type DeviceDocument, evolveDevice } from '@herald/read-models';

/**
 * A device as the audience index keeps it: the read model's device, cut to
 * what an audience is decided on. It evolves with the read model's own
 * `evolveDevice`, so the index and the devices read model cannot disagree
 * about what an event does to a device.
 */
export type IndexedDevice = Pick<
  DeviceDocument,
  '_id' | 'project_id' | 'token' | 'platform' | 'status' | 'topics' | 'metadata' | 'external_id' | 'timezone' | 'registered_at' | 'position' | 'locale'
> & {
  /** The device-events offset of the record that created it: a send whose recorded end is not past it was accepted before it registered. */
  since: number;
};

/**
 * The fields of an `IndexedDevice`, in the order the index stores them
 * (row-codec.ts). New fields go last: a row written before one was added
 * decodes with it absent, so no rebuild is needed (`locale`).
 */
export const INDEXED_FIELDS = ['_id', 'project_id', 'token', 'platform', 'status', 'topics', 'metadata', 'external_id', 'timezone', 'registered_at', 'position', 'since', 'locale'] as const;

function indexed(device: (DeviceDocument & { since: number }) | IndexedDevice): IndexedDevice {
  const row: Record<string, unknown> = {};
  for (const field of INDEXED_FIELDS) if (device[field] !== undefined) row[field] = device[field];
  return row as unknown as IndexedDevice;
}

/** A row as one event leaves it; `purged` (never stored) when the device was purged and its id must be forgotten. */
export type EvolvedRow = IndexedDevice & { purged?: true };

/** The device after one event (pure); the same object when the event changes nothing the index keeps. */
export function evolveIndexed(state: IndexedDevice | undefined, record: ConsumedEvent): EvolvedRow | undefined {
  // evolveDevice reads only fields an IndexedDevice has (the others it copies through, and `indexed` drops them).
  const next = evolveDevice(state as DeviceDocument | undefined, record);
  if (next === undefined || next === (state as DeviceDocument | undefined)) return state;
  const row = { ...next, since: state?.since ?? record.offset };
  return next.purged === true ? { ...purgedRow(row), purged: true } : indexed(row);
}

/**
 * What the index keeps of a purged device: an empty, inactive row (no
 * token, topics, metadata or user, so no lookup key) that holds its
 * ordinal. Rows are never deleted because every instance that applies the
 * partition must number its devices alike (audience-index.ts); its id is
 * forgotten, so the token registered again makes a new device.
 */
export function purgedRow(device: Pick<IndexedDevice, '_id' | 'project_id' | 'platform' | 'registered_at' | 'position' | 'since'>): IndexedDevice {
  const { _id, project_id, platform, registered_at, position, since } = device;
  return { _id, project_id, token: '', platform, status: 'inactive', topics: [], metadata: {}, registered_at, position, since };
}

/** Long values (tokens up to 4 KB, metadata values) are keyed by their hash, so index keys stay short. Used where the value itself is kept (aliases, topic names). */
export function keyPart(value: string): string {
  return Buffer.byteLength(value) <= 200 ? value : `sha256:${createHash('sha256').update(value).digest('hex')}`;
}

export type Key = Array<string | number>;

/** 48 bits of the SHA-256 of the parts (pure): a lookup key of 9 bytes, however long a token or a metadata value is. */
function digest(...parts: readonly string[]): number {
  return hash('sha256', parts.join('\u0000'), 'buffer').readUIntBE(0, 6);
}

/**
 * The lookup keys under which the index files a device's ordinal, one
 * function per kind of target, used to write them and to read them. A topic
 * is keyed by its id (one key per topic, so its length costs nothing). A
 * token, a user and a metadata pair are keyed by a digest within the
 * project: only equality is asked of them, so a digest serves, and a key per
 * device stays 20 bytes instead of a token's 64–4,096. Two values may share
 * a digest; every candidate is checked against its row by `matchesAudience`.
 */
export const lookupKey = {
  topic: (partition: number, topicId: string): Key => [partition, 't', topicId],
  token: (partition: number, projectId: string, token: string): Key => [partition, 'k', digest(projectId, token)],
  user: (partition: number, projectId: string, externalId: string): Key => [partition, 'x', digest(projectId, externalId)],
  metadata: (partition: number, projectId: string, key: string, value: string): Key => [partition, 'm', digest(projectId, key, value)],
};

/**
 * The lookup keys of an active device (pure): per topic, per metadata pair,
 * its user, its token. An inactive device has none, so every scan reads
 * only devices that can receive pushes.
 */
export function memberKeys(partition: number, device: IndexedDevice): Key[] {
  if (device.status !== 'active') return [];
  const project = device.project_id;
  const keys: Key[] = [lookupKey.token(partition, project, device.token)];
  for (const topic of new Set(device.topics)) keys.push(lookupKey.topic(partition, topic));
  for (const [key, value] of Object.entries(device.metadata)) keys.push(lookupKey.metadata(partition, project, key, value));
  if (device.external_id !== undefined) keys.push(lookupKey.user(partition, project, device.external_id));
  return keys;
}

/** What to delete and what to add when a device changes (pure). */
export function keyChanges(before: readonly Key[], after: readonly Key[]): { removed: Key[]; added: Key[] } {
  // A new device (every device while an index is built) has nothing to compare with.
  if (before.length === 0) return { removed: [], added: [...after] };
  const label = (key: Key) => JSON.stringify(key);
  const old = new Set(before.map(label));
  const next = new Set(after.map(label));
  return { removed: before.filter((key) => !next.has(label(key))), added: after.filter((key) => !old.has(label(key))) };
}
