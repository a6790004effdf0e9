import { open, type Database, type RootDatabase } from 'lmdb';
import type { ConsumedEvent } from '@herald/kafka';
import { evolveTopic, type TopicDocument } from '@herald/projections';
import { idKey, rowCodec } from './row-codec.ts';
import { evolveIndexed, keyChanges, keyPart, memberKeys, type IndexedDevice, type Key } from './index-rows.ts';

/** An ordinal past every real one: the end of a key range. */
const END = Number.MAX_SAFE_INTEGER;

/** Device-events partitions an index can hold: a rows database each, beside the members and ids databases. */
const MAX_PARTITIONS = 1024;

/**
 * A member's ordinal as 4 bytes, big-endian: the members database keeps
 * fixed-size duplicates (LMDB packs them, 4 bytes each, in key order, so a
 * topic of a million devices is 4 MB, read in order from any ordinal).
 */
const ordinalCodec = {
  encode(ordinal: number): Buffer {
    const bytes = Buffer.allocUnsafe(4);
    bytes.writeUInt32BE(ordinal);
    return bytes;
  },
  decode(bytes: Uint8Array): number {
    return bytes[0]! * 2 ** 24 + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!;
  },
};

/** A topic as the index keeps it: the topics read model's document, evolved by its own `evolveTopic`. */
export type IndexedTopic = TopicDocument;

/**
 * The delivery instance's audience index, for each device-events partition
 * it has applied, in LMDB databases written in one transaction per chunk:
 * every device's row (`rows/<partition>`, by ordinal); each device's ordinal
 * by id (`ids`, `idKey`); the ordinals of active devices under each lookup
 * key (`members`: a topic, a token, a user, a metadata pair;
 * index-rows.ts); and in the main database the project's topics from
 * topic-events and the next offset to apply per partition (its
 * checkpoint). Ordinals are given in log order, so every instance that
 * applies a partition from the log numbers its devices alike, and a fan-out
 * step's position (`after`) means the same wherever the partition goes.
 *
 * It is a cache of the log: losing the directory costs a rebuild, never a
 * push. Writes skip fsync (a process crash loses nothing; a machine crash
 * may cost a rebuild).
 */
/**
 * Address space reserved for the index's file map (virtual: the file grows
 * only as rows are written). Without it lmdb-js maps the file anew each time
 * it outgrows the map and keeps the earlier mappings, whose pages stay
 * resident beside the new ones: 13 mappings and 1.64 GB resident for a
 * 1.1 GB file at 1M devices. Past this size lmdb-js still grows the map.
 */
export const INDEX_MAP_BYTES = 32 * 2 ** 30;

/**
 * The index's layout, kept in its meta: an index in another is rebuilt from
 * the log (open-instance.ts). `packed-rows-ids` (sixteenth session): rows,
 * lookup keys and ids in databases of their own, members as packed
 * ordinals, tokens by digest, rows and ids in `row-codec.ts`'s short forms;
 * 0.38 of the single database's size (200,000 devices: 194.6 → 73.5 MB).
 */
export const INDEX_FORMAT = 'packed-rows-ids';

export class AudienceIndex {
  readonly #db: RootDatabase<unknown, Key>;
  readonly #rowsByPartition = new Map<number, Database<IndexedDevice, number>>();
  readonly #members: Database<number, Key>;
  readonly #ids: Database<number, Buffer>;
  /**
   * Per partition, the ordinal its next new device takes: one past its rows'
   * last key (rows are never deleted), read once and counted on from there.
   * Forgotten when a transaction fails, so a rolled-back device's ordinal is
   * given again and every instance numbers a partition's devices alike.
   * Counting in memory is sound because this object is the directory's only
   * writer (`openInstance` gives each directory to one process, which opens
   * it once).
   */
  readonly #nextOrdinal = new Map<number, number>();

  private constructor(db: RootDatabase<unknown, Key>) {
    this.#db = db;
    // `dupFixed` (LMDB's MDB_DUPFIXED) and `encoder` are read by lmdb-js's openDB but missing from its option types.
    const packedOrdinals = { dupFixed: true, encoder: ordinalCodec } as object;
    this.#members = db.openDB<number, Key>({ name: 'members', compression: false, dupSort: true, ...packedOrdinals });
    const ordinalValues = { encoder: ordinalCodec } as object;
    this.#ids = db.openDB<number, Buffer>({ name: 'ids', keyEncoding: 'binary', compression: false, ...ordinalValues });
  }

  static open(path: string): AudienceIndex {
    return new AudienceIndex(open<unknown, Key>({ path, noSync: true, compression: false, mapSize: INDEX_MAP_BYTES, maxDbs: MAX_PARTITIONS + 2 }));
  }

  /**
   * A partition's rows, keyed by ordinal (4-byte integer keys), encoded by
   * `rowCodec`: a database of its own, so every new ordinal is its last key
   * and LMDB fills each page before starting the next (a key inserted before
   * the last splits its page in half).
   */
  #rows(partition: number): Database<IndexedDevice, number> {
    let rows = this.#rowsByPartition.get(partition);
    if (rows === undefined) {
      // `encoder` is read by lmdb-js's openDB but missing from its option types.
      const encodedRows = { encoder: rowCodec } as object;
      rows = this.#db.openDB<IndexedDevice, number>({ name: `rows/${partition}`, keyEncoding: 'uint32', compression: false, ...encodedRows });
      this.#rowsByPartition.set(partition, rows);
    }
    return rows;
  }

  async close(): Promise<void> {
    await this.#db.close();
  }

  /** A value kept beside the index, if set. */
  storedMeta(name: string): string | undefined {
    const found = this.#db.get(['meta', name]);
    return typeof found === 'string' ? found : undefined;
  }

  /** A value kept beside the index (the instance id), set by `make` the first time. */
  meta(name: string, make: () => string): string {
    const found = this.#db.get(['meta', name]);
    if (typeof found === 'string') return found;
    const value = make();
    this.#db.putSync(['meta', name], value);
    return value;
  }

  /** The next device-events offset to apply on `partition` (0: nothing applied). */
  next(partition: number): number {
    return (this.#db.get(['c', 'd', partition]) as number | undefined) ?? 0;
  }

  /** Every device-events checkpoint, by partition (for the group's assignment). */
  checkpoints(): Record<string, number> {
    const found: Record<string, number> = {};
    for (const { key, value } of this.#db.getRange({ start: ['c', 'd'], end: ['c', 'd', END] })) found[String(key[2])] = value as number;
    return found;
  }

  /** Applies device events of one partition, in log order, and moves its checkpoint to `next`, in one transaction. */
  applyDevices(partition: number, records: readonly ConsumedEvent[], next: number): void {
    try {
      this.#db.transactionSync(() => {
        for (const record of records) this.#applyDevice(partition, record);
        this.#db.putSync(['c', 'd', partition], next);
      });
    } catch (error) {
      this.#nextOrdinal.delete(partition);
      throw error;
    }
  }

  #takeOrdinal(partition: number): number {
    let ordinal = this.#nextOrdinal.get(partition);
    if (ordinal === undefined) {
      ordinal = 0;
      for (const last of this.#rows(partition).getKeys({ reverse: true, limit: 1 })) ordinal = last + 1;
    }
    this.#nextOrdinal.set(partition, ordinal + 1);
    return ordinal;
  }

  #applyDevice(partition: number, record: ConsumedEvent): void {
    const { event } = record;
    if (event.type === 'TokenAssigned') {
      this.#db.putSync([partition, 'a', event.project_id, keyPart(event.data.token)], { token: event.data.token, device_id: event.data.device_id });
      return;
    }
    const deviceId = (event.data as { device_id?: unknown }).device_id;
    if (typeof deviceId !== 'string') return;
    let ordinal = this.#ids.get(idKey(partition, deviceId));
    const before = ordinal === undefined ? undefined : this.#rows(partition).get(ordinal);
    const after = evolveIndexed(before, record);
    if (after === undefined || after === before) return;
    if (ordinal === undefined) {
      ordinal = this.#takeOrdinal(partition);
      this.#ids.putSync(idKey(partition, deviceId), ordinal);
    }
    const { removed, added } = keyChanges(before === undefined ? [] : memberKeys(partition, before), memberKeys(partition, after));
    for (const key of removed) this.#members.removeSync(key, ordinal);
    for (const key of added) this.#members.putSync(key, ordinal);
    this.#rows(partition).putSync(ordinal, after);
  }

  /** A device by id, as the index holds it (tests, explain). */
  device(partition: number, deviceId: string): IndexedDevice | undefined {
    const ordinal = this.#ids.get(idKey(partition, deviceId));
    return ordinal === undefined ? undefined : this.#rows(partition).get(ordinal);
  }

  /** Every device of a partition, in ordinal order (tests, rebuild checks). */
  *devices(partition: number): Generator<IndexedDevice> {
    for (const { value } of this.#rows(partition).getRange()) yield value;
  }

  row(partition: number, ordinal: number): IndexedDevice | undefined {
    return this.#rows(partition).get(ordinal);
  }

  ordinalOf(partition: number, deviceId: string): number | undefined {
    return this.#ids.get(idKey(partition, deviceId));
  }

  /** Ordinals filed under a lookup key (`lookupKey`: a topic, a metadata pair, a user, a token), ascending, past `after`. */
  *ordinals(key: Key, after: number): Generator<number> {
    yield* this.#members.getValues(key, { start: ordinalCodec.encode(after + 1) });
  }

  /** How many ordinals a lookup key holds (LMDB keeps the count of a key's duplicates: no ordinal is read). */
  countUnder(key: Key): number {
    return this.#members.getValuesCount(key);
  }

  /** How many devices the partition has ever held, inactive ones included (rows are counted, not read). */
  deviceCount(partition: number): number {
    return this.#rows(partition).getKeysCount();
  }

  /** Every ordinal of the partition past `after` (a target that names every device, e.g. an empty metadata filter). */
  *allOrdinals(partition: number, after: number): Generator<number> {
    for (const key of this.#rows(partition).getKeys({ start: after + 1 })) yield key;
  }

  /** The device holding `token` when its id was not derived from it (a refresh): recorded by TokenAssigned on this partition. */
  alias(partition: number, projectId: string, token: string): string | undefined {
    const found = this.#db.get([partition, 'a', projectId, keyPart(token)]) as { token: string; device_id: string } | undefined;
    return found !== undefined && found.token === token ? found.device_id : undefined;
  }

  /** The next topic-events offset to apply on `partition`. */
  topicNext(partition: number): number {
    return (this.#db.get(['c', 't', partition]) as number | undefined) ?? 0;
  }

  /** Applies topic events of one topic-events partition and moves its checkpoint, in one transaction. */
  applyTopics(partition: number, records: readonly ConsumedEvent[], next: number): void {
    this.#db.transactionSync(() => {
      for (const record of records) {
        const { event } = record;
        if (event.type !== 'TopicCreated' && event.type !== 'TopicDeleted') continue;
        const key = ['T', 'i', event.project_id, event.data.topic_id];
        const before = this.#db.get(key) as IndexedTopic | undefined;
        const after = evolveTopic(before, record);
        if (after === undefined || after === before) continue;
        this.#db.putSync(key, after);
        this.#db.putSync(['T', 'n', event.project_id, keyPart(after.name)], after._id);
      }
      this.#db.putSync(['c', 't', partition], next);
    });
  }

  /** The project's live topic with this id or name. */
  topicOf(projectId: string, idOrName: string): string | undefined {
    const byId = this.#db.get(['T', 'i', projectId, idOrName]) as IndexedTopic | undefined;
    if (byId !== undefined && byId.deleted_at === undefined) return idOrName;
    const id = this.#db.get(['T', 'n', projectId, keyPart(idOrName)]) as string | undefined;
    if (id === undefined) return undefined;
    const topic = this.#db.get(['T', 'i', projectId, id]) as IndexedTopic | undefined;
    return topic !== undefined && topic.deleted_at === undefined && topic.name === idOrName ? id : undefined;
  }
}
