import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Key } from './index-rows.ts';

/*
 * The audience index's tables in SQLite and the statements that read and
 * write them, prepared once per database (audience-index.ts says what each
 * table holds).
 */

/**
 * Pages SQLite keeps in this process (its page cache), in KiB: the upper
 * levels of every B-tree and the pages in use. Everything else is read from
 * the system's file cache when needed and never counts in the process's
 * memory — the reason the index is in SQLite rather than LMDB, whose map
 * kept every page a build or a campaign had touched resident (375 MB at a
 * million devices).
 */
const PAGE_CACHE_KIB = 16 * 1024;

/** Ordinals read per query when iterating a lookup key or a partition's rows. */
export const ORDINALS_PER_QUERY = 1024;

/**
 * A lookup key (`lookupKey`: [partition, kind, value]) as the members and ids
 * tables store it (pure, injective): per part, a tag byte, then a number as
 * 8 bytes or a string's UTF-8 bytes and a 0 terminator. Only equality is
 * asked of it.
 */
export function memberKey(key: Key): Buffer {
  const parts: Buffer[] = [];
  for (const part of key) {
    if (typeof part === 'number') {
      const bytes = Buffer.allocUnsafe(9);
      bytes[0] = 1;
      bytes.writeDoubleBE(part, 1);
      parts.push(bytes);
    } else {
      parts.push(Buffer.from([2]), Buffer.from(part, 'utf8'), Buffer.from([0]));
    }
  }
  return Buffer.concat(parts);
}

/** The statements of one partition's rows table. */
export interface RowStatements {
  insert: StatementSync;
  replace: StatementSync;
  get: StatementSync;
  last: StatementSync;
  after: StatementSync;
  all: StatementSync;
  /** Rows from one ordinal to another, as [ordinal, row] arrays. */
  between: StatementSync;
}

/** The statements over the tables every index has. */
export interface IndexStatements {
  begin: StatementSync;
  commit: StatementSync;
  rollback: StatementSync;
  kvGet: StatementSync;
  kvPut: StatementSync;
  checkpointGet: StatementSync;
  checkpointPut: StatementSync;
  checkpointsOf: StatementSync;
  idGet: StatementSync;
  idPut: StatementSync;
  idDelete: StatementSync;
  memberPut: StatementSync;
  memberDelete: StatementSync;
  /** A lookup key's ordinals past one, as [ordinal] arrays. */
  memberPage: StatementSync;
  memberCount: StatementSync;
}

/** Sets the database's pragmas, creates the tables every index has and prepares their statements. */
export function prepareIndex(db: DatabaseSync): IndexStatements {
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA cache_size = -${PAGE_CACHE_KIB};`);
  db.exec(`
    CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS checkpoints (kind TEXT NOT NULL, partition INTEGER NOT NULL, next INTEGER NOT NULL, PRIMARY KEY (kind, partition)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS ids (key BLOB PRIMARY KEY, ordinal INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS members (key BLOB NOT NULL, ordinal INTEGER NOT NULL, PRIMARY KEY (key, ordinal)) WITHOUT ROWID;
  `);
  const statements: IndexStatements = {
    begin: db.prepare('BEGIN'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    kvGet: db.prepare('SELECT value FROM kv WHERE key = ?'),
    kvPut: db.prepare('INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)'),
    checkpointGet: db.prepare('SELECT next FROM checkpoints WHERE kind = ? AND partition = ?'),
    checkpointPut: db.prepare('INSERT OR REPLACE INTO checkpoints (kind, partition, next) VALUES (?, ?, ?)'),
    checkpointsOf: db.prepare('SELECT partition, next FROM checkpoints WHERE kind = ?'),
    idGet: db.prepare('SELECT ordinal FROM ids WHERE key = ?'),
    idPut: db.prepare('INSERT OR REPLACE INTO ids (key, ordinal) VALUES (?, ?)'),
    idDelete: db.prepare('DELETE FROM ids WHERE key = ?'),
    memberPut: db.prepare('INSERT OR IGNORE INTO members (key, ordinal) VALUES (?, ?)'),
    memberDelete: db.prepare('DELETE FROM members WHERE key = ? AND ordinal = ?'),
    memberPage: db.prepare(`SELECT ordinal FROM members WHERE key = ? AND ordinal > ? ORDER BY ordinal LIMIT ${ORDINALS_PER_QUERY}`),
    memberCount: db.prepare('SELECT count(*) AS count FROM members WHERE key = ?'),
  };
  statements.memberPage.setReturnArrays(true);
  return statements;
}

/**
 * Creates a partition's rows table if needed and prepares its statements:
 * rows keyed by ordinal (the table's rowid), a table per partition, so every
 * new ordinal is its last key and each page fills before the next begins.
 */
export function prepareRows(db: DatabaseSync, partition: number): RowStatements {
  if (!Number.isInteger(partition) || partition < 0) throw new Error(`not a partition: ${partition}`);
  const table = `rows_${partition}`;
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (ordinal INTEGER PRIMARY KEY, row BLOB NOT NULL)`);
  const rows: RowStatements = {
    insert: db.prepare(`INSERT INTO ${table} (ordinal, row) VALUES (?, ?)`),
    replace: db.prepare(`UPDATE ${table} SET row = ? WHERE ordinal = ?`),
    get: db.prepare(`SELECT row FROM ${table} WHERE ordinal = ?`),
    last: db.prepare(`SELECT max(ordinal) AS last FROM ${table}`),
    after: db.prepare(`SELECT ordinal FROM ${table} WHERE ordinal > ? ORDER BY ordinal LIMIT ${ORDINALS_PER_QUERY}`),
    all: db.prepare(`SELECT ordinal, row FROM ${table} WHERE ordinal > ? ORDER BY ordinal LIMIT ${ORDINALS_PER_QUERY}`),
    between: db.prepare(`SELECT ordinal, row FROM ${table} WHERE ordinal >= ? AND ordinal <= ? ORDER BY ordinal`),
  };
  rows.between.setReturnArrays(true);
  rows.after.setReturnArrays(true);
  return rows;
}
