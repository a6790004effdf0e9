import { open, type RootDatabase } from 'lmdb';
import type { ConsumedEvent } from '@herald/kafka';
import { evolveTopic, type TopicDocument } from '@herald/projections';
import { evolveIndexed, keyChanges, keyPart, memberKeys, type IndexedDevice, type Key } from './index-rows.ts';

/** An ordinal past every real one: the end of a key range. */
const END = Number.MAX_SAFE_INTEGER;

/** A topic as the index keeps it: the topics read model's document, evolved by its own `evolveTopic`. */
export type IndexedTopic = TopicDocument;

/**
 * The delivery instance's audience index: for each device-events partition
 * it has applied, every device (`[p,'r',ordinal]`), its id
 * (`[p,'i',id] → ordinal`) and the lookup keys of active devices
 * (index-rows.ts); the project's topics from topic-events; and, in the same
 * LMDB transaction as each change, the next offset to apply per partition
 * (its checkpoint). Ordinals are given in log order, so every instance that
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
 * Rows are MessagePack records whose field names are stored once, under this
 * key, not in every row. Without it each row carried its field names and
 * every read decoded them anew: a 100,000-device campaign allocated 300 MB
 * reading rows. An index written without them is rebuilt (`INDEX_FORMAT`).
 */
const INDEX_STRUCTURES_KEY = Symbol.for('structures');

/** The rows' encoding, kept in the index's meta: an index in another is rebuilt from the log (open-instance.ts). */
export const INDEX_FORMAT = 'shared-structures';

export class AudienceIndex {
  readonly #db: RootDatabase<unknown, Key>;

  private constructor(db: RootDatabase<unknown, Key>) {
    this.#db = db;
  }

  static open(path: string): AudienceIndex {
    return new AudienceIndex(open<unknown, Key>({ path, noSync: true, compression: false, mapSize: INDEX_MAP_BYTES, sharedStructuresKey: INDEX_STRUCTURES_KEY }));
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
    this.#db.transactionSync(() => {
      for (const record of records) this.#applyDevice(partition, record);
      this.#db.putSync(['c', 'd', partition], next);
    });
  }

  #applyDevice(partition: number, record: ConsumedEvent): void {
    const { event } = record;
    if (event.type === 'TokenAssigned') {
      this.#db.putSync([partition, 'a', event.project_id, keyPart(event.data.token)], { token: event.data.token, device_id: event.data.device_id });
      return;
    }
    const deviceId = (event.data as { device_id?: unknown }).device_id;
    if (typeof deviceId !== 'string') return;
    let ordinal = this.#db.get([partition, 'i', deviceId]) as number | undefined;
    const before = ordinal === undefined ? undefined : (this.#db.get([partition, 'r', ordinal]) as IndexedDevice | undefined);
    const after = evolveIndexed(before, record);
    if (after === undefined || after === before) return;
    if (ordinal === undefined) {
      ordinal = (this.#db.get(['n', partition]) as number | undefined) ?? 0;
      this.#db.putSync(['n', partition], ordinal + 1);
      this.#db.putSync([partition, 'i', deviceId], ordinal);
    }
    const { removed, added } = keyChanges(before === undefined ? [] : memberKeys(partition, before, ordinal), memberKeys(partition, after, ordinal));
    for (const key of removed) this.#db.removeSync(key);
    for (const key of added) this.#db.putSync(key, null);
    this.#db.putSync([partition, 'r', ordinal], after);
  }

  /** A device by id, as the index holds it (tests, explain). */
  device(partition: number, deviceId: string): IndexedDevice | undefined {
    const ordinal = this.#db.get([partition, 'i', deviceId]) as number | undefined;
    return ordinal === undefined ? undefined : (this.#db.get([partition, 'r', ordinal]) as IndexedDevice | undefined);
  }

  /** Every device of a partition, in ordinal order (tests, rebuild checks). */
  *devices(partition: number): Generator<IndexedDevice> {
    for (const { value } of this.#db.getRange({ start: [partition, 'r', 0], end: [partition, 'r', END] })) yield value as IndexedDevice;
  }

  row(partition: number, ordinal: number): IndexedDevice | undefined {
    return this.#db.get([partition, 'r', ordinal]) as IndexedDevice | undefined;
  }

  ordinalOf(partition: number, deviceId: string): number | undefined {
    return this.#db.get([partition, 'i', deviceId]) as number | undefined;
  }

  /** Ordinals under a key prefix (a topic, a metadata pair, a user, a token), ascending, past `after`. */
  *ordinals(prefix: Key, after: number): Generator<number> {
    for (const key of this.#db.getKeys({ start: [...prefix, after + 1], end: [...prefix, END] })) yield key[key.length - 1] as number;
  }

  /** How many ordinals a key prefix holds (counted by LMDB without decoding them: about 10 ms per 170,000). */
  countUnder(prefix: Key): number {
    return this.#db.getKeysCount({ start: [...prefix, 0], end: [...prefix, END] });
  }

  /** Every ordinal of the partition past `after` (a target that names every device, e.g. an empty metadata filter). */
  *allOrdinals(partition: number, after: number): Generator<number> {
    for (const key of this.#db.getKeys({ start: [partition, 'r', after + 1], end: [partition, 'r', END] })) yield key[2] as number;
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
