import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { ConsumedEvent } from '@herald/kafka';
import { decodeRow, encodeRow, idKey } from './row-codec.ts';
import { evolveIndexed, keyChanges, keyPart, memberKeys, type IndexedDevice, type Key } from './index-rows.ts';
import { memberKey, ORDINALS_PER_QUERY, prepareIndex, prepareRows, type IndexStatements, type RowStatements } from './index-tables.ts';
import { IndexCheckpoints } from './index-checkpoints.ts';
import { applyTopicEvents, liveTopicId, type KeyValues } from './index-topics.ts';

export type { IndexedTopic } from './index-topics.ts';

/**
 * The index's layout, kept in its meta: its owner rebuilds an index in another
 * from the log (delivery's `openInstance`). `sqlite-v1`: the tables
 * below, rows and ids in `row-codec.ts`'s short forms, lookup keys by
 * `memberKey`. Before it the index lived in LMDB (`openInstance` reads an
 * LMDB index's instance id once and deletes it).
 */
export const INDEX_FORMAT = 'sqlite-v1';

/** The index's file inside the directory given to `AudienceIndex.open`. */
export const INDEX_FILE = 'audience.sqlite';

/**
 * The delivery instance's audience index, for each device-events partition
 * it has applied, in one SQLite file written in one transaction per chunk:
 * every device's row (`rows_<partition>`, by ordinal); each device's ordinal
 * by id (`ids`, `idKey`); the ordinals of active devices under each lookup
 * key (`members`: a topic, a token, a user, a metadata pair; index-rows.ts);
 * the project's topics from topic-events, token aliases and meta values
 * (`kv`); and the next offset to apply per partition (`checkpoints`).
 * Ordinals are given in log order, so every instance that applies a
 * partition from the log numbers its devices alike, and a fan-out step's
 * position (`after`) means the same wherever the partition goes.
 *
 * It is a cache of the log: losing the directory costs a rebuild, never a
 * push. Writes skip fsync (`synchronous=OFF` in WAL mode: a process crash
 * loses nothing; a machine crash may cost a rebuild).
 */
export class AudienceIndex {
  readonly #db: DatabaseSync;
  readonly #rowsByPartition = new Map<number, RowStatements>();
  readonly #statements: IndexStatements;
  /**
   * Per partition, the ordinal its next new device takes: one past its rows'
   * last key (rows are never deleted), read once and counted on from there.
   * Forgotten when a transaction fails, so a rolled-back device's ordinal is
   * given again and every instance numbers a partition's devices alike.
   * Counting in memory is sound because this object is the directory's only
   * writer (its owner gives each directory to one process, delivery's `openInstance`, which opens
   * it once).
   */
  readonly #nextOrdinal = new Map<number, number>();
  readonly #checkpoints: IndexCheckpoints;
  /** The key-value table (`kv`): token aliases, topics, meta values. */
  readonly #kv: KeyValues;

  private constructor(db: DatabaseSync) {
    this.#db = db;
    this.#statements = prepareIndex(db);
    this.#checkpoints = new IndexCheckpoints(this.#statements);
    this.#kv = {
      get: (key): unknown => {
        const found = this.#statements.kvGet.get(JSON.stringify(key)) as { value: string } | undefined;
        return found === undefined ? undefined : JSON.parse(found.value);
      },
      put: (key, value) => {
        this.#statements.kvPut.run(JSON.stringify(key), JSON.stringify(value));
      },
    };
  }

  /** Opens (creating it if needed) the index kept in `dir`. */
  static open(dir: string): AudienceIndex {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return new AudienceIndex(new DatabaseSync(join(dir, INDEX_FILE)));
  }

  /** A partition's rows table (index-tables.ts), its statements prepared once. */
  #rows(partition: number): RowStatements {
    let rows = this.#rowsByPartition.get(partition);
    if (rows === undefined) {
      rows = prepareRows(this.#db, partition);
      this.#rowsByPartition.set(partition, rows);
    }
    return rows;
  }

  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }

  /** A value kept beside the index, if set. */
  storedMeta(name: string): string | undefined {
    const found = this.#kv.get(['meta', name]);
    return typeof found === 'string' ? found : undefined;
  }

  /** A value kept beside the index (the instance id), set by `make` the first time. */
  meta(name: string, make: () => string): string {
    const found = this.storedMeta(name);
    if (found !== undefined) return found;
    const value = make();
    this.#kv.put(['meta', name], value);
    return value;
  }

  /** The next device-events offset to apply on `partition` (0: nothing applied). */
  next(partition: number): number {
    return this.#checkpoints.next('d', partition);
  }

  /** Every device-events checkpoint, by partition (for the group's assignment). */
  checkpoints(): Record<string, number> {
    return this.#checkpoints.all('d');
  }

  /** Applies device events of one partition, in log order, and moves its checkpoint to `next`, in one transaction. */
  applyDevices(partition: number, records: readonly ConsumedEvent[], next: number): void {
    try {
      this.#checkpoints.move('d', partition, next, () => {
        for (const record of records) this.#applyDevice(partition, record);
      });
    } catch (error) {
      this.#nextOrdinal.delete(partition);
      throw error;
    }
  }

  #takeOrdinal(partition: number): number {
    let ordinal = this.#nextOrdinal.get(partition);
    if (ordinal === undefined) ordinal = this.deviceCount(partition);
    this.#nextOrdinal.set(partition, ordinal + 1);
    return ordinal;
  }

  #applyDevice(partition: number, record: ConsumedEvent): void {
    const { event } = record;
    if (event.type === 'TokenAssigned') {
      this.#kv.put([partition, 'a', event.project_id, keyPart(event.data.token)], { token: event.data.token, device_id: event.data.device_id });
      return;
    }
    const deviceId = (event.data as { device_id?: unknown }).device_id;
    if (typeof deviceId !== 'string') return;
    const id = idKey(partition, deviceId);
    let ordinal = (this.#statements.idGet.get(id) as { ordinal: number } | undefined)?.ordinal;
    const before = ordinal === undefined ? undefined : this.row(partition, ordinal);
    const after = evolveIndexed(before, record);
    if (after === undefined || after === before) return;
    const isNew = ordinal === undefined;
    if (ordinal === undefined) {
      ordinal = this.#takeOrdinal(partition);
      this.#statements.idPut.run(id, ordinal);
    }
    const { removed, added } = keyChanges(before === undefined ? [] : memberKeys(partition, before), memberKeys(partition, after));
    for (const key of removed) this.#statements.memberDelete.run(memberKey(key), ordinal);
    for (const key of added) this.#statements.memberPut.run(memberKey(key), ordinal);
    if (isNew) this.#rows(partition).insert.run(ordinal, encodeRow(after));
    else this.#rows(partition).replace.run(encodeRow(after), ordinal);
    // Purged: the row stays, emptied (index-rows.ts purgedRow); the id goes, so the device is found no more.
    if (after.purged === true) this.#statements.idDelete.run(id);
  }

  /** A device by id, as the index holds it (tests, explain). */
  device(partition: number, deviceId: string): IndexedDevice | undefined {
    const ordinal = this.ordinalOf(partition, deviceId);
    return ordinal === undefined ? undefined : this.row(partition, ordinal);
  }

  /** Every device of a partition, in ordinal order (tests, rebuild checks). */
  *devices(partition: number): Generator<IndexedDevice> {
    let after = -1;
    for (;;) {
      const page = this.#rows(partition).all.all(after) as Array<{ ordinal: number; row: Uint8Array }>;
      for (const { row } of page) yield decodeRow(row);
      if (page.length < ORDINALS_PER_QUERY) return;
      after = page[page.length - 1]!.ordinal;
    }
  }

  row(partition: number, ordinal: number): IndexedDevice | undefined {
    const found = this.#rows(partition).get.get(ordinal) as { row: Uint8Array } | undefined;
    return found === undefined ? undefined : decodeRow(found.row);
  }

  /**
   * The rows of ascending ordinals, in their order (undefined where none):
   * one query over the range when they lie close together (a topic's members,
   * every device), one per ordinal when they are scattered. A query per row
   * costs about twice as much as a row of a range.
   */
  rowsAt(partition: number, ordinals: readonly number[]): Array<IndexedDevice | undefined> {
    const found = new Array<IndexedDevice | undefined>(ordinals.length).fill(undefined);
    if (ordinals.length === 0) return found;
    const first = ordinals[0]!;
    const last = ordinals[ordinals.length - 1]!;
    if (last - first + 1 > 2 * ordinals.length) return ordinals.map((ordinal) => this.row(partition, ordinal));
    const rows = this.#rows(partition).between.all(first, last) as unknown as Array<[number, Uint8Array]>;
    let at = 0;
    for (const [ordinal, row] of rows) {
      while (at < ordinals.length && ordinals[at]! < ordinal) at += 1;
      if (at === ordinals.length) break;
      if (ordinals[at] === ordinal) found[at] = decodeRow(row);
    }
    return found;
  }

  ordinalOf(partition: number, deviceId: string): number | undefined {
    return (this.#statements.idGet.get(idKey(partition, deviceId)) as { ordinal: number } | undefined)?.ordinal;
  }

  /**
   * Ordinals filed under a lookup key (`lookupKey`: a topic, a metadata pair, a user, a token), ascending, past `after`.
   * Read a query at a time, so no statement stays open between two calls and iterators can interleave.
   */
  *ordinals(key: Key, after: number): Generator<number> {
    const encoded = memberKey(key);
    let from = after;
    for (;;) {
      const page = this.#statements.memberPage.all(encoded, from) as unknown as Array<[number]>;
      for (const [ordinal] of page) yield ordinal;
      if (page.length < ORDINALS_PER_QUERY) return;
      from = page[page.length - 1]![0];
    }
  }

  /** How many ordinals a lookup key holds (counted in the members table's index; no row is read). */
  countUnder(key: Key): number {
    return (this.#statements.memberCount.get(memberKey(key)) as { count: number }).count;
  }

  /** How many devices the partition has ever held, inactive ones included: ordinals are dense from 0 and rows are never deleted. */
  deviceCount(partition: number): number {
    const last = (this.#rows(partition).last.get() as { last: number | null }).last;
    return last === null ? 0 : last + 1;
  }

  /** Every ordinal of the partition past `after` (a target that names every device, e.g. an empty metadata filter). */
  *allOrdinals(partition: number, after: number): Generator<number> {
    let from = after;
    for (;;) {
      const page = this.#rows(partition).after.all(from) as unknown as Array<[number]>;
      for (const [ordinal] of page) yield ordinal;
      if (page.length < ORDINALS_PER_QUERY) return;
      from = page[page.length - 1]![0];
    }
  }

  /** The device holding `token` when its id was not derived from it (a refresh): recorded by TokenAssigned on this partition. */
  alias(partition: number, projectId: string, token: string): string | undefined {
    const found = this.#kv.get([partition, 'a', projectId, keyPart(token)]) as { token: string; device_id: string } | undefined;
    return found !== undefined && found.token === token ? found.device_id : undefined;
  }

  /** The next topic-events offset to apply on `partition`. */
  topicNext(partition: number): number {
    return this.#checkpoints.next('t', partition);
  }

  /** Applies topic events of one topic-events partition and moves its checkpoint, in one transaction. */
  applyTopics(partition: number, records: readonly ConsumedEvent[], next: number): void {
    this.#checkpoints.move('t', partition, next, () => applyTopicEvents(this.#kv, records));
  }

  /** The project's live topic with this id or name. */
  topicOf(projectId: string, idOrName: string): string | undefined {
    return liveTopicId(this.#kv, projectId, idOrName);
  }
}
