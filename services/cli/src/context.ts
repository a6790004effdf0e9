import { loadConfig } from '@herald/config';
import { connectMongo, ensureAdminIndexes, type MongoHandle } from '@herald/mongo';
import { AdminStore } from '@herald/admin';
import { createKafka, EventProducer, type HeraldKafka } from '@herald/kafka';
import { createLogger, type Logger } from '@herald/log';
import { CliConfig } from './config.ts';

export interface CliContext {
  admin: AdminStore;
  mongo: MongoHandle;
  logger: Logger;
  out: (line: string) => void;
  /** Kafka, connected on first use (only replay and lag need it). */
  kafka: () => Promise<{ kafka: HeraldKafka; producer: EventProducer }>;
}

export type Runner = (run: (context: CliContext) => Promise<void>) => Promise<void>;

/** Opens what a command needs, runs it, and always closes what it opened. */
export async function withContext(env: Readonly<Record<string, string | undefined>>, run: (context: CliContext) => Promise<void>): Promise<void> {
  const config = loadConfig(CliConfig, env);
  const logger = createLogger({ name: 'herald-cli', level: config.LOG_LEVEL, destination: process.stderr });
  const mongo = await connectMongo(config.MONGO_URL, 'herald-cli');
  let connected: { kafka: HeraldKafka; producer: EventProducer } | undefined;
  try {
    await ensureAdminIndexes(mongo.db);
    await run({
      admin: new AdminStore(mongo.db),
      mongo,
      logger,
      out: (line) => process.stdout.write(`${line}\n`),
      kafka: async () => {
        if (connected === undefined) {
          const kafka = createKafka({ brokers: config.KAFKA_BROKERS, prefix: config.KAFKA_TOPIC_PREFIX, clientId: 'herald-cli', logger });
          const producer = new EventProducer(kafka);
          await producer.connect();
          connected = { kafka, producer };
        }
        return connected;
      },
    });
  } finally {
    await connected?.producer.disconnect();
    await mongo.close();
  }
}
