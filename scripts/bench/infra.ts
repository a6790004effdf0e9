import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, kafkaPortsFree, startLocalInfra, type LocalInfra, type LocalInfraSettings } from '@herald/local-infra';
import { localInfraControl, type InfraControl } from './infra-control.ts';
import { createKafka, ensureTopics, EventProducer, withLogAdmin, type HeraldKafka } from '@herald/kafka';
import { connectMongo, dropDatabase, type MongoHandle } from '@herald/mongo';
import { createLogger } from '@herald/log';

/** Kafka + MongoDB for one run, under a namespace (topic prefix, database) of its own. */
export interface BenchInfra {
  /** Which servers this run started (`local`) and which it was given. */
  kind: { kafka: 'local Kafka' | 'external Kafka'; mongo: 'local FerretDB' | 'external MongoDB' };
  kafkaBrokers: string;
  /** With the run's database. */
  mongoUrl: string;
  prefix: string;
  kafka: HeraldKafka;
  producer: EventProducer;
  mongo: MongoHandle;
  /** Kafka and the store when this run started them (both local): pids now, and restarts for fault injection. */
  control?: InfraControl;
  dataDir?: string;
  close(keep: boolean): Promise<void>;
}

/** The same server, another database: `mongodb://host:port/?opts` → `mongodb://host:port/<db>?opts`. */
function withDatabase(url: string, database: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)\/?([^?]*)(\?.*)?$/.exec(url);
  if (match === null) throw new Error(`not a MongoDB URL: ${url}`);
  return `${match[1]}/${database}${match[3] ?? ''}`;
}

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

export async function setUpInfra(options: { partitions: number; brokers?: number; say: (line: string) => void }): Promise<BenchInfra> {
  const runId = randomBytes(4).toString('hex');
  const prefix = `bench-${runId}.`;
  const database = `bench_${runId}`;
  let infra: LocalInfra | undefined;
  let settings: LocalInfraSettings | undefined;
  let dataDir: string | undefined;
  let kafkaBrokers = process.env.KAFKA_BROKERS;
  let baseMongoUrl = process.env.MONGO_URL;
  const localMongo = baseMongoUrl === undefined;
  const localKafka = kafkaBrokers === undefined;
  if (kafkaBrokers === undefined || baseMongoUrl === undefined) {
    dataDir = await mkdtemp(join(tmpdir(), 'herald-bench-'));
    const brokers = options.brokers ?? 1;
    const { kafkaPort, kafkaControllerPort } = await kafkaPortsFree(brokers);
    const [mongoPort] = (await distinctFreePorts(1)) as [number];
    options.say(`starting local Kafka (${brokers} broker${brokers === 1 ? '' : 's'}) + FerretDB in ${dataDir}`);
    try {
      settings = { dataDir, kafkaPort, kafkaControllerPort, mongoPort, brokers, onOutput: (line) => process.stderr.write(`[infra] ${line}\n`) };
      infra = await startLocalInfra(settings);
    } catch (error) {
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
    // Whichever of the two is set is still used (e.g. a real MongoDB next to the local Kafka).
    kafkaBrokers ??= infra.kafkaBrokers;
    baseMongoUrl ??= infra.mongoUrl;
  } else {
    options.say('using KAFKA_BROKERS / MONGO_URL from the environment');
  }
  const localInfra = infra;
  const mongoUrl = withDatabase(baseMongoUrl, database);
  // kafkajs logs expected start-up noise (coordinator loading) at error level; failures still surface as exceptions.
  const logger = createLogger({ name: 'bench', level: 'fatal' });
  const kafka = createKafka({ brokers: kafkaBrokers, prefix, clientId: 'herald-bench', logger });
  const producer = new EventProducer(kafka);
  let mongo: MongoHandle | undefined;
  try {
    // Created here, before the services start, so their own ensureTopics finds them and nobody races.
    await ensureTopics(kafka, { partitions: options.partitions });
    await producer.connect();
    mongo = await connectMongo(mongoUrl, 'herald-bench');
  } catch (error) {
    await producer.disconnect().catch(() => undefined);
    await localInfra?.stop().catch(() => undefined);
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const handle = mongo;
  return {
    kind: { kafka: localKafka ? 'local Kafka' : 'external Kafka', mongo: localMongo ? 'local FerretDB' : 'external MongoDB' },
    kafkaBrokers,
    mongoUrl,
    prefix,
    kafka,
    producer,
    mongo: handle,
    ...(settings !== undefined && localKafka && localMongo ? { control: localInfraControl(settings) } : {}),
    ...(dataDir === undefined ? {} : { dataDir }),
    close: async (keep) => {
      await producer.disconnect().catch(() => undefined);
      // Shared servers: remove what this run created there (a local server goes away with its data dir).
      if (!keep && !localMongo) await dropDatabase(handle.db).catch(() => undefined);
      if (!keep && !localKafka) {
        await withLogAdmin(kafka, async (admin) => {
          await admin.deleteTopics((await admin.topics()).filter((topic) => topic.startsWith(prefix)));
          await admin.deleteGroups((await admin.groups()).filter((id) => id.startsWith(prefix)));
        }).catch(() => undefined); // best effort
      }
      await handle.close().catch(() => undefined);
      if (localInfra !== undefined) await localInfra.stop().catch((error: unknown) => options.say(`could not stop local infra: ${String(error)}`));
      if (dataDir !== undefined && !keep) await rm(dataDir, { recursive: true, force: true });
      else if (dataDir !== undefined) options.say(`kept data in ${dataDir}`);
    },
  };
}
