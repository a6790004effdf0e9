import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startLocalInfra } from '@herald/local-infra';

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBrokers: string;
    mongoUrl: string;
  }
}

type Teardown = () => Promise<void>;

/**
 * Finds a real Kafka and a real MongoDB-wire server for the integration and
 * end-to-end tests, in this order:
 *   1. KAFKA_BROKERS and MONGO_URL, when both are set;
 *   2. testcontainers, when a container runtime (Docker) answers;
 *   3. the repository's local infrastructure (Kafka jars + FerretDB), on free ports and a temporary data dir.
 */
export default async function setup(project: TestProject): Promise<Teardown> {
  const fromEnv = process.env.KAFKA_BROKERS !== undefined && process.env.MONGO_URL !== undefined;
  if (fromEnv) {
    project.provide('kafkaBrokers', process.env.KAFKA_BROKERS!);
    project.provide('mongoUrl', process.env.MONGO_URL!);
    return async () => undefined;
  }
  const containers = await startContainersIfAvailable();
  if (containers !== undefined) {
    project.provide('kafkaBrokers', containers.kafkaBrokers);
    project.provide('mongoUrl', containers.mongoUrl);
    return containers.stop;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'herald-test-'));
  // The teardown runs after the test runner's summary; its lines are kept back unless stopping fails,
  // so that a run (and CI's log) ends with the summary.
  let stopping = false;
  const stopLines: string[] = [];
  try {
    const infra = await startLocalInfra({
      dataDir,
      kafkaPort: await freePort(),
      kafkaControllerPort: await freePort(),
      mongoPort: await freePort(),
      onOutput: (line) => (stopping ? stopLines.push(line) : process.stderr.write(`[infra] ${line}\n`)),
    });
    project.provide('kafkaBrokers', infra.kafkaBrokers);
    project.provide('mongoUrl', infra.mongoUrl);
    return async () => {
      stopping = true;
      try {
        await infra.stop();
      } catch (error) {
        process.stderr.write(stopLines.map((line) => `[infra] ${line}\n`).join(''));
        throw error;
      }
      await rm(dataDir, { recursive: true, force: true });
    };
  } catch (error) {
    throw new Error(
      'No Kafka / MongoDB for the integration tests. Either set KAFKA_BROKERS and MONGO_URL to running servers, ' +
        'or run where a Docker engine answers (testcontainers), or install java, mvn and go so infra/bin/herald-infra ' +
        `can run Kafka and FerretDB locally. Local infrastructure failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

async function startContainersIfAvailable(): Promise<{ kafkaBrokers: string; mongoUrl: string; stop: Teardown } | undefined> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    await Promise.race([
      getContainerRuntimeClient(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('container runtime did not answer')), 5_000).unref()),
    ]);
  } catch {
    return undefined;
  }
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const [kafka, mongo] = await Promise.all([
    new KafkaContainer('confluentinc/cp-kafka:7.9.0').withKraft().start(),
    new MongoDBContainer('mongo:7').start(),
  ]);
  return {
    kafkaBrokers: `${kafka.getHost()}:${kafka.getMappedPort(9093)}`,
    mongoUrl: `${mongo.getConnectionString()}/?directConnection=true`,
    stop: async () => {
      await Promise.all([kafka.stop(), mongo.stop()]);
    },
  };
}
