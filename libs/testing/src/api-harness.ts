import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@herald/local-infra';
import { CredentialStore, generateSecretKey, parseSecretKey, WebPushKeyStore } from '@herald/admin';
import {
  configureTestCredentials,
  createFakeTls,
  startFakeApns,
  startFakeFcm,
  startFakeHms,
  startFakeWebPush,
  type ApnsRule,
  type FakeApns,
  type FakeFcm,
  type FakeHms,
  type FakeWebPush,
  type FcmRule,
  type HmsRule,
} from '@herald/fake-providers';
import { retryOnPortClash, startServiceProcesses, REPO_ROOT, type ServiceProcess } from './service-process.ts';
import { createTestEnv, type TestEnv } from './test-env.ts';

export interface ApiResponse {
  status: number;
  body: Record<string, unknown> | undefined;
}

export interface RequestOptions {
  key?: string | undefined;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface ApiHarness {
  env: TestEnv;
  baseUrl: string;
  /** The environment the services run with (also what the CLI gets). */
  serviceEnv: Record<string, string>;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Runs `herald …` (the CLI) as its own process; resolves with its stdout. */
  herald(...args: string[]): Promise<string>;
  createProject(name: string): Promise<{ id: string; api_key: string }>;
  /** With `delivery: true`: the fakes the delivery process sends to, and a way to give a project credentials for them. */
  fakes?: {
    apns: FakeApns;
    fcm: FakeFcm;
    /** Huawei Push Kit (its OAuth token endpoint too): configure() registers the project's HMS app with it. */
    hms: FakeHms;
    /** A push service: its subscriptions' endpoints are loopback, which delivery calls in local mode (WEBPUSH_LOCAL=on, set for it here). */
    webpush: FakeWebPush;
    /** A second push service (another origin), for what one push service's answers must not do to another's. */
    webpushOther: FakeWebPush;
    configure(projectId: string): Promise<void>;
    /** The project's VAPID keys, sealed with the delivery process's secret (the API needs only their public part). */
    vapid: WebPushKeyStore;
  };
  /** `/metrics` of each service process. */
  metricsUrls: Record<string, string>;
  /** Stops every service process with `signal`, then starts the API, the projector and (with `delivery: true`, `webhooks: true`) delivery and webhooks again. */
  restartAll(signal: NodeJS.Signals): Promise<void>;
  /** Restarts the projector process (for crash tests): `signal` ends the running one first. */
  restartProjector(signal: NodeJS.Signals): Promise<void>;
  /** With `webhooks: true`: restarts the webhooks process; `signal` ends the running one first, `whileDown` runs before the start. */
  restartWebhooks?(signal: NodeJS.Signals, options?: { whileDown?: () => Promise<void> }): Promise<void>;
  /** Restarts the delivery process (for crash tests): `signal` ends the running one first; `wipeIndex` deletes its directory (audience index, instance id) in between; `whileDown` runs once it has exited, before the start. */
  restartDelivery?(signal: NodeJS.Signals, options?: { wipeIndex?: boolean; whileDown?: () => Promise<void> }): Promise<void>;
  /** Starts one more delivery process (its consumer groups rebalance); stopped with the others. */
  addDelivery?(): Promise<ServiceProcess>;
  /** What each running service process printed so far (failure messages). */
  outputs(): Record<string, string>;
  /** Stops the services (asserting nothing); resolves with their exit codes. */
  stop(): Promise<Record<string, number | null>>;
}

export interface HarnessOptions {
  /** Extra settings for the API process, over the harness's (which switch rate limits off: HERALD_RATE_LIMITS=off). */
  apiEnv?: Record<string, string>;
  /** Also run the delivery process (all roles) against fake APNs and FCM. */
  delivery?: boolean;
  deliveryEnv?: Record<string, string>;
  /** Also run the webhooks process (services/webhooks), which posts the project's events to its webhooks. */
  webhooks?: boolean;
  webhooksEnv?: Record<string, string>;
  apnsRules?: readonly ApnsRule[];
  fcmRules?: readonly FcmRule[];
  hmsRules?: readonly HmsRule[];
  /** A Kafka and store of the test's own (fault tests restart them); default: the shared test infra. */
  infra?: { kafkaBrokers: string; mongoUrl: string };
}

const DELIVERY_READY = 'delivery consuming';
const WEBHOOKS_READY = 'webhooks running';

interface DeliveryFixture {
  env: Record<string, string>;
  fakes: NonNullable<ApiHarness['fakes']>;
  close(): Promise<void>;
}

/** Fake APNs and FCM sharing one CA, written where the delivery process trusts it via NODE_EXTRA_CA_CERTS. */
async function startDeliveryFixture(env: TestEnv, options: HarnessOptions): Promise<DeliveryFixture> {
  const tls = await createFakeTls();
  const dir = await mkdtemp(join(tmpdir(), 'herald-fakes-'));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, tls.ca);
  const apns = await startFakeApns({ tls, rules: options.apnsRules ?? [] });
  const fcm = await startFakeFcm({ tls, rules: options.fcmRules ?? [] });
  const [webpush, webpushOther] = await Promise.all([startFakeWebPush({ tls }), startFakeWebPush({ tls })]);
  const hms = await startFakeHms({ tls, rules: options.hmsRules ?? [] });
  const secret = generateSecretKey();
  const credentials = new CredentialStore(env.mongo.db, parseSecretKey(secret));
  return {
    env: { HERALD_SECRET_KEY: secret, APNS_ENDPOINT: apns.url, FCM_ENDPOINT: fcm.url, HMS_ENDPOINT: hms.url, HMS_TOKEN_ENDPOINT: hms.tokenUrl, WEBPUSH_LOCAL: 'on', NODE_EXTRA_CA_CERTS: caFile, DELIVERY_RETRY_DEADLINE_MS: '10000', ...options.deliveryEnv },
    fakes: {
      apns,
      fcm,
      webpush,
      webpushOther,
      hms,
      configure: (projectId) => configureTestCredentials({ apns, fcm, hms }, credentials, projectId),
      vapid: new WebPushKeyStore(env.mongo.db, parseSecretKey(secret)),
    },
    close: async () => {
      await Promise.all([apns.close(), fcm.close(), webpush.close(), webpushOther.close(), hms.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The ports one harness's services listen on. */
interface HarnessPorts {
  api: number;
  apiMetrics: number;
  projectorMetrics: number;
  deliveryMetrics: number;
  webhooksMetrics: number;
}

/**
 * The whole system for end-to-end tests, each part its own process as in
 * production: the API and the projector against the test infrastructure,
 * under a namespace (topic prefix, database) of this test file's own.
 */
export async function startApiHarness(name: string, options: HarnessOptions = {}): Promise<ApiHarness> {
  const env = await createTestEnv(name, options.infra);
  const serviceEnv = {
    KAFKA_BROKERS: env.kafkaBrokers,
    KAFKA_TOPIC_PREFIX: env.prefix,
    MONGO_URL: env.mongoUrl,
    KAFKA_PARTITIONS: '3',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info',
  };
  const fixture = options.delivery === true ? await startDeliveryFixture(env, options) : undefined;
  // Each delivery process has a directory of its own (its audience index); a restart keeps it, as a restarted machine would.
  const stateDir = await mkdtemp(join(tmpdir(), 'herald-delivery-'));
  let deliveries = 0;
  const deliveryDir = () => join(stateDir, `delivery-${(deliveries += 1)}`);
  const indexDir = deliveryDir();
  const specsOn = (ports: HarnessPorts) => ({
    api: {
      entry: 'services/api/src/server.ts',
      // Tests of other features are not throttled; rate-limit tests pass their own limits in apiEnv.
      env: { ...serviceEnv, HOST: '127.0.0.1', PORT: String(ports.api), METRICS_PORT: String(ports.apiMetrics), HERALD_RATE_LIMITS: 'off', ...options.apiEnv },
      readyLine: 'Server listening at',
    },
    projector: { entry: 'services/projector/src/main.ts', env: { ...serviceEnv, METRICS_PORT: String(ports.projectorMetrics) }, readyLine: 'projector consuming' },
    delivery: {
      entry: 'services/delivery/src/main.ts',
      env: { ...serviceEnv, ...fixture?.env, METRICS_PORT: String(ports.deliveryMetrics), DELIVERY_INDEX_DIR: indexDir },
      readyLine: DELIVERY_READY,
    },
    webhooks: {
      entry: 'services/webhooks/src/main.ts',
      env: { ...serviceEnv, METRICS_PORT: String(ports.webhooksMetrics), ...options.webhooksEnv },
      readyLine: WEBHOOKS_READY,
    },
  });
  /** The processes a start runs, by name: API and projector always, delivery and webhooks when asked. */
  const chosen = (specs: ReturnType<typeof specsOn>) => ({
    api: specs.api,
    projector: specs.projector,
    ...(fixture === undefined ? {} : { delivery: specs.delivery }),
    ...(options.webhooks === true ? { webhooks: specs.webhooks } : {}),
  });
  const startChosen = async (specs: ReturnType<typeof specsOn>): Promise<Record<string, ServiceProcess>> => {
    const named = Object.entries(chosen(specs));
    const started = await startServiceProcesses(named.map(([, spec]) => spec));
    return Object.fromEntries(named.map(([processName], index) => [processName, started[index]!]));
  };
  let ports: HarnessPorts;
  let processes: Record<string, ServiceProcess>;
  try {
    ({ ports, processes } = await retryOnPortClash(async () => {
      const picked = { api: await freePort(), apiMetrics: await freePort(), projectorMetrics: await freePort(), deliveryMetrics: await freePort(), webhooksMetrics: await freePort() };
      return { ports: picked, processes: await startChosen(specsOn(picked)) };
    }));
  } catch (error) {
    await fixture?.close();
    await env.close();
    await rm(stateDir, { recursive: true, force: true });
    throw error;
  }
  const { projector: projectorSpec, delivery: deliverySpec, webhooks: webhooksSpec } = specsOn(ports);
  const baseUrl = `http://127.0.0.1:${ports.api}`;
  const metricsUrls: Record<string, string> = {
    api: `http://127.0.0.1:${ports.apiMetrics}/metrics`,
    projector: `http://127.0.0.1:${ports.projectorMetrics}/metrics`,
    ...(fixture === undefined ? {} : { delivery: `http://127.0.0.1:${ports.deliveryMetrics}/metrics` }),
    ...(options.webhooks === true ? { webhooks: `http://127.0.0.1:${ports.webhooksMetrics}/metrics` } : {}),
  };

  const herald = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(process.execPath, ['services/cli/src/main.ts', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...serviceEnv },
    });
    return stdout;
  };

  return {
    env,
    baseUrl,
    serviceEnv,
    metricsUrls,
    herald,
    createProject: async (projectName) => JSON.parse(await herald('projects', 'create', projectName, '--json')) as { id: string; api_key: string },
    request: async (method, path, options = {}) => {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
      let body: string | undefined;
      if (options.rawBody !== undefined || options.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = options.rawBody ?? JSON.stringify(options.body);
      }
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
    },
    restartAll: async (signal: NodeJS.Signals) => {
      await Promise.all(Object.values(processes).map((running) => running.stop(signal)));
      processes = await startChosen(specsOn(ports));
    },
    restartProjector: async (signal: NodeJS.Signals) => {
      await processes.projector?.stop(signal);
      const [projector] = await startServiceProcesses([projectorSpec]);
      processes.projector = projector!;
    },
    ...(options.webhooks === true
      ? {
          restartWebhooks: async (signal: NodeJS.Signals, restart: { whileDown?: () => Promise<void> } = {}) => {
            await processes.webhooks?.stop(signal);
            await restart.whileDown?.();
            const [webhooks] = await startServiceProcesses([webhooksSpec]);
            processes.webhooks = webhooks!;
          },
        }
      : {}),
    ...(fixture === undefined
      ? {}
      : {
          fakes: fixture.fakes,
          restartDelivery: async (signal: NodeJS.Signals, restart: { wipeIndex?: boolean; whileDown?: () => Promise<void> } = {}) => {
            await processes.delivery?.stop(signal);
            if (restart.wipeIndex === true) await rm(deliverySpec.env.DELIVERY_INDEX_DIR, { recursive: true, force: true });
            await restart.whileDown?.();
            const [delivery] = await startServiceProcesses([deliverySpec]);
            processes.delivery = delivery!;
          },
          addDelivery: async () => {
            const [extra] = await startServiceProcesses([{ ...deliverySpec, env: { ...deliverySpec.env, METRICS_PORT: String(await freePort()), DELIVERY_INDEX_DIR: deliveryDir() } }]);
            processes[`delivery-${Object.keys(processes).length}`] = extra!;
            return extra!;
          },
        }),
    outputs: () => Object.fromEntries(Object.entries(processes).map(([name, running]) => [name, running.output()])),
    stop: async () => {
      const names = Object.keys(processes);
      const codes = await Promise.all(names.map((processName) => processes[processName]!.stop()));
      await fixture?.close();
      await env.close();
      await rm(stateDir, { recursive: true, force: true });
      return Object.fromEntries(names.map((processName, index) => [processName, codes[index] ?? null]));
    },
  };
}

/** The last `lines` lines of what each service process printed: a failed test's story, for stderr. */
export function outputTails(harness: Pick<ApiHarness, 'outputs'>, lines = 40): string {
  return Object.entries(harness.outputs())
    .map(([name, output]) => `--- ${name}\n${output.split('\n').slice(-lines).join('\n')}\n`)
    .join('');
}
