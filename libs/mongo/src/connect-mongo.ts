import { MongoClient, MongoNetworkError, MongoServerSelectionError, type Db } from 'mongodb';
import { InfrastructureError } from '@herald/errors';

export type { Db, Collection, AnyBulkWriteOperation, Filter, Document } from 'mongodb';

export interface MongoHandle {
  client: MongoClient;
  db: Db;
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
    return { client, db, close: () => client.close() };
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

/**
 * Infrastructure errors become retriable AppErrors (consumers back off and
 * retry); anything else is returned unchanged for the caller to judge.
 */
export function wrapMongoError(error: unknown): unknown {
  if (error instanceof MongoNetworkError || error instanceof MongoServerSelectionError) {
    return new InfrastructureError('MONGO_UNAVAILABLE', 'MongoDB is not reachable', { cause: error });
  }
  return error;
}
