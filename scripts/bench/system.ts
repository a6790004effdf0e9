import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminStore, CredentialStore, generateSecretKey, parseSecretKey, WebPushKeyStore } from '@herald/admin';
import { createFakeTls, createTestApnsKey, createTestHmsApp, createTestServiceAccount, type FakeTls, type TestApnsKey } from '@herald/fake-providers';
import { DELIVERY_CONSUMERS } from '@herald/events';
import { freePort } from '@herald/local-infra';
import { ensureAdminIndexes, readModelVersion, type ReadModelName } from '@herald/mongo';
import { groupsJoined, httpOk, spawnService, waitReady, type Child } from './children.ts';
import { startFakesProcess, type RemoteFake } from './fakes-process.ts';
import { DELIVERY_ROLES, type DeliveryRole } from './delivery-roles.ts';
import type { BenchSubscription } from './register.ts';
import type { BenchInfra } from './infra.ts';

export const BUNDLE_ID = 'com.example.herald.bench';

/** Fake providers in a child process, the services as child processes (several projector/delivery instances), one project with credentials for the fakes. */
export interface BenchSystem {
  apns: RemoteFake;
  fcm: RemoteFake;
  /** The fake push service; `subscribe` makes browser subscriptions with the project's VAPID key. */
  webpush: RemoteFake & { subscribe(from: number, count: number): Promise<BenchSubscription[]> };
  /** The fake HMS Push Kit (huawei devices); the project's HMS credential is an app it knows. */
  hms: RemoteFake;
  /** The project's VAPID key (its web devices are recorded with it). */
  vapidKeyId: string;
  /** The process the fakes run in. */
  fakesPid: number | undefined;
  tls: FakeTls;
  apnsKey: TestApnsKey;
  baseUrl: string;
  /** /metrics of every delivery instance started (dead ones fail to answer). */
  deliveryMetricsUrls(): string[];
  /** Live delivery instances and their DELIVERY_INDEX_DIR (each has its own; a replacement takes over the killed one's). */
  deliveryIndexDirs(): Array<{ pid: number; dir: string }>;
  children: { api: Child; projectors: Child[]; deliveries: Child[] };
  /** Pids of the live instances of a service. */
  pidsOf(service: 'api' | 'projector' | 'delivery'): number[];
  /** `splitDeliveryRoles`: pids of the live delivery process running that role alone (none otherwise). */
  pidsOfDeliveryRole(role: DeliveryRole): number[];
  /** Starts one more delivery instance (it joins the consumer groups: a rebalance). */
  addDelivery(): Promise<string>;
  /** kill -9 one delivery instance, then starts a new one in its place, on its directory (index checkpoint included). */
  killDelivery(): Promise<string>;
  /** Stops every live delivery instance (SIGTERM: it drains and leaves its groups), then starts each again on its directory; resolves with the performance.now() the new ones were spawned. */
  restartDeliveries(): Promise<{ stoppedMs: number; spawnedAt: number }>;
  project: { id: string; apiKey: string };
  close(): Promise<void>;
}

const MODELS: readonly ReadModelName[] = ['devices', 'topics', 'notifications', 'delivery_ledger'];

export async function startSystem(
  infra: BenchInfra,
  options: { latencyMs: number; partitions: number; deliveryInstances: number; projectorInstances: number; deliveryTimes?: boolean; splitDeliveryRoles?: boolean },
): Promise<BenchSystem> {
  const tls = await createFakeTls();
  const dir = await mkdtemp(join(tmpdir(), 'herald-bench-fakes-'));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, tls.ca);
  // In a process of their own, so their CPU and memory are measured apart from the bench's.
  const fakes = await startFakesProcess(tls, options.latencyMs, { times: options.deliveryTimes === true });
  const { apns, fcm } = fakes;
  const closeFakes = async () => {
    await fakes.close();
    await rm(dir, { recursive: true, force: true });
  };

  const secret = generateSecretKey();
  const port = await freePort();
  const deliveryMetricsPorts: number[] = [];
  const serviceEnv = {
    KAFKA_BROKERS: infra.kafkaBrokers,
    KAFKA_TOPIC_PREFIX: infra.prefix,
    MONGO_URL: infra.mongoUrl,
    KAFKA_PARTITIONS: String(options.partitions),
    LOG_LEVEL: process.env.HERALD_BENCH_LOG_LEVEL ?? 'warn',
  };
  let instance = 0;
  const spawnProjector = async () => spawnService(`projector-${(instance += 1)}`, 'services/projector/src/main.ts', { ...serviceEnv, METRICS_PORT: String(await freePort()) });
  /**
   * Each delivery process's own directory (its audience index, and its instance id, which names its transactional
   * producer: one process per directory, role-only ones included); removed with the fakes' temp dir.
   */
  const indexDirs = new Map<Child, string>();
  /** The one role of each process of a split run (absent: every role, the service's default). */
  const rolesOf = new Map<Child, DeliveryRole>();
  let dirs = 0;
  const spawnDelivery = async (role?: DeliveryRole, indexDir = join(dir, `delivery-index-${(dirs += 1)}`)) => {
    const metricsPort = await freePort();
    deliveryMetricsPorts.push(metricsPort);
    const child = spawnService(role === undefined ? `delivery-${(instance += 1)}` : `delivery-${role}-${(instance += 1)}`, 'services/delivery/src/main.ts', {
      ...serviceEnv,
      ...(role === undefined ? {} : { DELIVERY_ROLES: role }),
      DELIVERY_INDEX_DIR: indexDir,
      METRICS_PORT: String(metricsPort),
      HERALD_SECRET_KEY: secret,
      APNS_ENDPOINT: apns.url,
      FCM_ENDPOINT: fcm.url,
      HMS_ENDPOINT: fakes.hms.url,
      HMS_TOKEN_ENDPOINT: fakes.hms.tokenUrl,
      // The fake push service listens on loopback.
      WEBPUSH_LOCAL: 'on',
      NODE_EXTRA_CA_CERTS: caFile,
    });
    indexDirs.set(child, indexDir);
    if (role !== undefined) rolesOf.set(child, role);
    return child;
  };
  /** The same process again (its role, its directory): a restart or a killed one's replacement. */
  const respawn = (child: Child) => spawnDelivery(rolesOf.get(child), indexDirs.get(child));
  /** The consumer groups a delivery process joins: a role's (DELIVERY_CONSUMERS keys start with the role name), or all. */
  const groupsOf = (child: Child) => {
    const role = rolesOf.get(child);
    return Object.entries(DELIVERY_CONSUMERS).flatMap(([key, consumer]) => (role === undefined || key.startsWith(role) ? [consumer.group] : []));
  };
  const children = {
    // Another change adds rate limits to the API; the benchmark measures the pipeline, not them.
    api: spawnService('api', 'services/api/src/server.ts', { ...serviceEnv, HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: '0', HERALD_RATE_LIMITS: 'off' }),
    projectors: await Promise.all(Array.from({ length: options.projectorInstances }, spawnProjector)),
    deliveries: await Promise.all(
      options.splitDeliveryRoles === true ? DELIVERY_ROLES.map((role) => spawnDelivery(role)) : Array.from({ length: options.deliveryInstances }, () => spawnDelivery()),
    ),
  };
  const live = (list: readonly Child[]) => list.filter((child) => child.child.exitCode === null && child.child.signalCode === null);
  const pidsOf = (list: readonly Child[]) => live(list).flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
  const stopAll = async () => {
    await Promise.all([children.api, ...children.projectors, ...children.deliveries].map((child) => child.stop()));
    await closeFakes();
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await Promise.all([
      waitReady(children.api, 'GET /readyz 200', httpOk(`${baseUrl}/readyz`)),
      ...children.projectors.map((child) => waitReady(child, 'projection groups joined', groupsJoined(infra.kafka, MODELS.map((model) => readModelVersion(model, 1).group)))),
      ...children.deliveries.map((child) => waitReady(child, 'delivery groups joined', groupsJoined(infra.kafka, groupsOf(child)))),
    ]);
    await ensureAdminIndexes(infra.mongo.db);
    const { project, apiKey } = await new AdminStore(infra.mongo.db).createProject('bench');
    const credentials = new CredentialStore(infra.mongo.db, parseSecretKey(secret));
    const apnsKey = createTestApnsKey();
    await apns.registerKey({ keyId: apnsKey.keyId, teamId: apnsKey.teamId, publicKeyPem: apnsKey.publicKeyPem });
    await credentials.setApns(project._id, { keyPem: apnsKey.keyPem, keyId: apnsKey.keyId, teamId: apnsKey.teamId, bundleId: BUNDLE_ID, sandbox: true });
    const account = createTestServiceAccount();
    await fcm.registerAccount({ clientEmail: account.clientEmail, projectId: account.projectId, publicKeyPem: account.publicKeyPem });
    await credentials.setFcm(project._id, { serviceAccount: { ...account.serviceAccount } });
    const hmsApp = createTestHmsApp();
    await fakes.hms.registerApp(hmsApp);
    await credentials.setHms(project._id, hmsApp);
    const vapid = (await new WebPushKeyStore(infra.mongo.db, parseSecretKey(secret)).generate(project._id, 'mailto:bench@example.com')).keys[0]!;
    return {
      apns,
      fcm,
      webpush: {
        url: fakes.webpush.url,
        get stats() {
          return fakes.webpush.stats;
        },
        reset: () => fakes.webpush.reset(),
        onDelivery: (listener) => fakes.webpush.onDelivery(listener),
        subscribe: (from: number, count: number) => fakes.webpush.subscribe(from, count, vapid.public_key),
      },
      hms: fakes.hms,
      vapidKeyId: vapid.id,
      fakesPid: fakes.pid,
      tls,
      apnsKey,
      baseUrl,
      deliveryMetricsUrls: () => deliveryMetricsPorts.map((metricsPort) => `http://127.0.0.1:${metricsPort}/metrics`),
      deliveryIndexDirs: () => live(children.deliveries).flatMap((child) => (child.pid === undefined ? [] : [{ pid: child.pid, dir: indexDirs.get(child)! }])),
      children,
      pidsOf: (service) => (service === 'api' ? pidsOf([children.api]) : pidsOf(service === 'projector' ? children.projectors : children.deliveries)),
      pidsOfDeliveryRole: (role) => pidsOf(children.deliveries.filter((child) => rolesOf.get(child) === role)),
      addDelivery: async () => {
        const child = await spawnDelivery();
        children.deliveries.push(child);
        return `started ${child.name} (pid ${child.pid ?? '?'}); ${live(children.deliveries).length} delivery instances now`;
      },
      killDelivery: async () => {
        const victim = live(children.deliveries)[0];
        if (victim === undefined) return 'no live delivery instance to kill';
        const exited = new Promise((done) => victim.child.once('exit', done));
        victim.child.kill('SIGKILL');
        await exited;
        // On the victim's directory: a restart from its index checkpoint, as an operator's restart would be.
        const replacement = await respawn(victim);
        children.deliveries.push(replacement);
        return `kill -9 ${victim.name} (pid ${victim.pid ?? '?'}); started ${replacement.name} (pid ${replacement.pid ?? '?'}) on its index directory`;
      },
      restartDeliveries: async () => {
        const stopping = performance.now();
        const stopped = live(children.deliveries);
        await Promise.all(stopped.map((child) => child.stop()));
        const stoppedMs = performance.now() - stopping;
        const spawnedAt = performance.now();
        children.deliveries.push(...(await Promise.all(stopped.map(respawn))));
        return { stoppedMs, spawnedAt };
      },
      project: { id: project._id, apiKey },
      close: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
