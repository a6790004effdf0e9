import { freePort } from '@herald/local-infra';
import { readModelVersion, type ReadModelName } from '@herald/mongo';
import { groupsJoined, httpOk, spawnService, waitReady, type Child } from './children.ts';
import type { BenchInfra } from './infra.ts';

const MODELS: readonly ReadModelName[] = ['devices', 'topics', 'notifications', 'delivery_ledger'];

/** The API (rate limits off) and one projector as child processes: what the read benchmark needs. */
export async function startReadSystem(infra: BenchInfra, partitions: number): Promise<{ baseUrl: string; api: Child; projector: Child; close(): Promise<void> }> {
  const port = await freePort();
  const env = { KAFKA_BROKERS: infra.kafkaBrokers, KAFKA_TOPIC_PREFIX: infra.prefix, MONGO_URL: infra.mongoUrl, KAFKA_PARTITIONS: String(partitions), LOG_LEVEL: 'warn' };
  const api = spawnService('api', 'services/api/src/server.ts', { ...env, HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: '0', HERALD_RATE_LIMITS: 'off' });
  const projector = spawnService('projector', 'services/projector/src/main.ts', { ...env, METRICS_PORT: String(await freePort()) });
  const close = async () => {
    await Promise.all([api.stop(), projector.stop()]);
    if (process.env.HERALD_BENCH_ECHO === '1') for (const child of [api, projector]) process.stderr.write(`--- ${child.name} output (tail) ---\n${child.tail()}\n`);
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await Promise.all([
      waitReady(api, 'GET /readyz 200', httpOk(`${baseUrl}/readyz`)),
      waitReady(projector, 'projection groups joined', groupsJoined(infra.kafka, MODELS.map((model) => readModelVersion(model, 1).group))),
    ]);
  } catch (error) {
    await close();
    throw error;
  }
  return { baseUrl, api, projector, close };
}
