import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createKafka, EventProducer, type HeraldKafka } from '@herald/kafka';
import { connectMongo, dropDatabase, type MongoHandle } from '@herald/mongo';
import { driverDb, type Db } from '@herald/mongo/testing';
import { createLogger, type Logger } from '@herald/log';

export interface TestEnv {
  /** Unique per test file: its topics, consumer groups and database are its own. */
  prefix: string;
  kafkaBrokers: string;
  mongoUrl: string;
  kafka: HeraldKafka;
  producer: EventProducer;
  mongo: MongoHandle;
  /** The driver's database behind `mongo.db`: for tests that look at what was stored (or store what no query writes). */
  driverDb: Db;
  logger: Logger;
  close(): Promise<void>;
}

/** Connects to the infrastructure the global setup provided (or `infra`, a test's own), under a fresh namespace. */
export async function createTestEnv(name: string, infra?: { kafkaBrokers: string; mongoUrl: string }): Promise<TestEnv> {
  const kafkaBrokers = infra?.kafkaBrokers ?? inject('kafkaBrokers');
  const baseUrl = infra?.mongoUrl ?? inject('mongoUrl');
  const prefix = `t-${name}-${randomBytes(4).toString('hex')}.`;
  const database = prefix.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 60);
  const mongoUrl = withDatabase(baseUrl, database);
  const logger = createLogger({ name: `test-${name}`, level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const kafka = createKafka({ brokers: kafkaBrokers, prefix, clientId: `test-${name}`, logger });
  const producer = new EventProducer(kafka);
  await producer.connect();
  const mongo = await connectMongo(mongoUrl, `test-${name}`);
  return {
    prefix,
    kafkaBrokers,
    mongoUrl,
    kafka,
    producer,
    mongo,
    driverDb: driverDb(mongo.db),
    logger,
    close: async () => {
      await producer.disconnect();
      await dropDatabase(mongo.db).catch(() => undefined);
      await mongo.close();
    },
  };
}

/** The same server, another database: `mongodb://host:port/?opts` → `mongodb://host:port/<db>?opts`. */
export function withDatabase(url: string, database: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)\/?([^?]*)(\?.*)?$/.exec(url);
  if (match === null) throw new Error(`not a MongoDB URL: ${url}`);
  return `${match[1]}/${database}${match[3] ?? ''}`;
}
