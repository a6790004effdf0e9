import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminStore, CredentialStore, generateSecretKey, parseSecretKey } from '@herald/admin';
import { createFakeTls, createTestApnsKey, createTestServiceAccount, startFakeApns, startFakeFcm, type FakeApns, type FakeFcm, type FakeTls, type TestApnsKey } from '@herald/fake-providers';
import { DELIVERY_CONSUMERS } from '@herald/events';
import { freePort } from '@herald/local-infra';
import { ensureAdminIndexes, readModelVersion, type ReadModelName } from '@herald/mongo';
import { groupsJoined, httpOk, spawnService, waitReady, type Child } from './children.ts';
import type { BenchInfra } from './infra.ts';

export const BUNDLE_ID = 'com.example.herald.bench';

/** Fake providers in this process, the three services as child processes, one project with credentials for the fakes. */
export interface BenchSystem {
  apns: FakeApns;
  fcm: FakeFcm;
  tls: FakeTls;
  apnsKey: TestApnsKey;
  baseUrl: string;
  metricsUrls: { api: string; projector: string; delivery: string };
  children: { api: Child; projector: Child; delivery: Child };
  project: { id: string; apiKey: string };
  close(): Promise<void>;
}

const MODELS: readonly ReadModelName[] = ['devices', 'topics', 'notifications', 'receipts'];

export async function startSystem(infra: BenchInfra, options: { latencyMs: number; partitions: number }): Promise<BenchSystem> {
  const tls = await createFakeTls();
  const dir = await mkdtemp(join(tmpdir(), 'herald-bench-fakes-'));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, tls.ca);
  // Counts only (record: false): a million deliveries are not kept in memory.
  const apns = await startFakeApns({ tls, record: false, latencyMs: options.latencyMs });
  const fcm = await startFakeFcm({ tls, record: false, latencyMs: options.latencyMs });
  const closeFakes = async () => {
    await Promise.all([apns.close(), fcm.close()]);
    await rm(dir, { recursive: true, force: true });
  };

  const secret = generateSecretKey();
  const port = await freePort();
  const metricsPorts = { projector: await freePort(), delivery: await freePort() };
  const serviceEnv = {
    KAFKA_BROKERS: infra.kafkaBrokers,
    KAFKA_TOPIC_PREFIX: infra.prefix,
    MONGO_URL: infra.mongoUrl,
    KAFKA_PARTITIONS: String(options.partitions),
    LOG_LEVEL: 'warn',
  };
  const children = {
    api: spawnService('api', 'services/api/src/server.ts', { ...serviceEnv, HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: '0', HERALD_RATE_LIMITS: 'off' }),
    projector: spawnService('projector', 'services/projector/src/main.ts', { ...serviceEnv, METRICS_PORT: String(metricsPorts.projector) }),
    delivery: spawnService('delivery', 'services/delivery/src/main.ts', {
      ...serviceEnv,
      METRICS_PORT: String(metricsPorts.delivery),
      HERALD_SECRET_KEY: secret,
      APNS_ENDPOINT: apns.url,
      FCM_ENDPOINT: fcm.url,
      NODE_EXTRA_CA_CERTS: caFile,
    }),
  };
  const stopAll = async () => {
    await Promise.all(Object.values(children).map((child) => child.stop()));
    await closeFakes();
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await Promise.all([
      waitReady(children.api, 'GET /readyz 200', httpOk(`${baseUrl}/readyz`)),
      waitReady(children.projector, 'projection groups joined', groupsJoined(infra.kafka, MODELS.map((model) => readModelVersion(model, 1).group))),
      waitReady(children.delivery, 'delivery groups joined', groupsJoined(infra.kafka, Object.values(DELIVERY_CONSUMERS).map((consumer) => consumer.group))),
    ]);
    await ensureAdminIndexes(infra.mongo.db);
    const { project, apiKey } = await new AdminStore(infra.mongo.db).createProject('bench');
    const credentials = new CredentialStore(infra.mongo.db, parseSecretKey(secret));
    const apnsKey = createTestApnsKey();
    apns.registerKey({ keyId: apnsKey.keyId, teamId: apnsKey.teamId, publicKeyPem: apnsKey.publicKeyPem });
    await credentials.setApns(project._id, { keyPem: apnsKey.keyPem, keyId: apnsKey.keyId, teamId: apnsKey.teamId, bundleId: BUNDLE_ID, sandbox: true });
    const account = createTestServiceAccount();
    fcm.registerAccount({ clientEmail: account.clientEmail, projectId: account.projectId, publicKeyPem: account.publicKeyPem });
    await credentials.setFcm(project._id, { serviceAccount: { ...account.serviceAccount } });
    return {
      apns,
      fcm,
      tls,
      apnsKey,
      baseUrl,
      metricsUrls: { api: `${baseUrl}/metrics`, projector: `http://127.0.0.1:${metricsPorts.projector}/metrics`, delivery: `http://127.0.0.1:${metricsPorts.delivery}/metrics` },
      children,
      project: { id: project._id, apiKey },
      close: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
