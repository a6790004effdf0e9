import { MongoClient, MongoError, MongoNetworkError, MongoServerError, MongoServerSelectionError, MongoNotConnectedError, MongoTopologyClosedError, MongoOperationTimeoutError, MongoServerClosedError, MongoWriteConcernError } from 'mongodb';
import { InfrastructureError } from '@herald/errors';
import { storeAdapter } from './store/store-adapter.ts';
import { driverDb, storeOver, type Store } from './store-handle.ts';

export interface MongoHandle {
  /** Herald's opaque handle on the store (store-handle.ts): hand it to the query classes. */
  db: Store;
  close(): Promise<void>;
}

/** Database used when the connection string names none. */
export const DEFAULT_DATABASE = 'herald';

/** Connects and checks the server answers; the database is the one named in the URL, else `herald`. */
export async function connectMongo(url: string, appName: string): Promise<MongoHandle> {
  const client = new MongoClient(url, { appName, serverSelectionTimeoutMS: 10_000 });
  try {
    await client.connect();
    const db = client.db(databaseName(url));
    await db.command({ ping: 1 });
    // What this store supports and needs (MongoDB or the local FerretDB) is chosen once, here, and kept with the database.
    await storeAdapter(db);
    return { db: storeOver(db), close: () => client.close() };
  } catch (cause) {
    await client.close().catch(() => undefined);
    throw new InfrastructureError('MONGO_UNAVAILABLE', 'MongoDB is not reachable at MONGO_URL', { cause });
  }
}

/** The database named in a connection string's path, or the default. */
export function databaseName(url: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]*)/.exec(url);
  const name = match?.[1] ? decodeURIComponent(match[1]) : '';
  return name === '' ? DEFAULT_DATABASE : name;
}

/** Server error codes that say "this server, now" rather than "this request": not primary, shutting down, timed out. */
const TRANSIENT_SERVER_CODES = new Set([6, 7, 50, 89, 91, 112, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);
const TRANSIENT_LABELS = ['RetryableWriteError', 'TransientTransactionError', 'ResetPool', 'SystemOverloadedError'];
/** A MongoDB-wire proxy (FerretDB) reports its own backend being down as an InternalError (code 1) with the cause in the text. */
const BACKEND_DOWN = /connect|refused|connection|timeout|timed out|shutting down|closed|unavailable|terminating/i;

/**
 * Socket errors the driver (7.x) sometimes lets through unwrapped: a write to a
 * connection the store just closed rejects with Node's own EPIPE ("This socket
 * has been ended by the other party") instead of a MongoNetworkError.
 */
const SOCKET_ERROR_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'ETIMEDOUT', 'ENOTCONN', 'EHOSTUNREACH', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

/** Whether a driver or server error is the store being unreachable or busy, not the request being wrong. */
export function isTransientMongoError(error: unknown): boolean {
  if (!(error instanceof MongoError)) return error instanceof Error && SOCKET_ERROR_CODES.has(String((error as NodeJS.ErrnoException).code));
  if (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoServerClosedError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoWriteConcernError
  ) {
    return true;
  }
  if (TRANSIENT_LABELS.some((label) => error.hasErrorLabel(label))) return true;
  if (error instanceof MongoServerError) {
    const code = typeof error.code === 'number' ? error.code : Number.NaN;
    if (TRANSIENT_SERVER_CODES.has(code)) return true;
    if (code === 1 && BACKEND_DOWN.test(error.message)) return true;
  }
  return false;
}

/**
 * Infrastructure errors (network, server selection, timeouts, "not primary",
 * shutting down, a proxy's backend down) become retriable AppErrors:
 * consumers back off and retry, never dead-letter for them. Anything else is
 * returned unchanged for the caller to judge.
 */
export function wrapMongoError(error: unknown): unknown {
  if (isTransientMongoError(error)) {
    return new InfrastructureError('MONGO_UNAVAILABLE', 'MongoDB is not reachable', { cause: error });
  }
  return error;
}

/** Which server answers on the MongoDB wire (its store adapter's flavour, store/store-adapter.ts). */
export async function storeFlavour(store: Store): Promise<'mongodb' | 'ferretdb'> {
  return (await storeAdapter(driverDb(store))).flavour;
}

/** Whether the store answers now (readiness): rejects when it does not. */
export async function pingStore(store: Store): Promise<void> {
  await driverDb(store).command({ ping: 1 });
}

/** Drops the whole database behind the handle: for throwaway databases (a bench run's, a test file's), never Herald's own. */
export async function dropDatabase(store: Store): Promise<void> {
  await driverDb(store).dropDatabase();
}
