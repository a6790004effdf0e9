import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@herald/local-infra';
import {
  apnsToken,
  REPO_ROOT,
  restartInfra,
  retryOnPortClash,
  startOwnInfra,
  startServiceProcessRetrying,
  stopBroker,
  stopStore,
  waitFor,
  type OwnInfra,
  type ServiceProcess,
} from '@herald/testing';

// This file stops and restarts Kafka and the store, so it runs its own (the shared ones serve other files).
let infra: OwnInfra;
let api: ServiceProcess;
let baseUrl: string;
let apiKey: string;
let projectId: string;

/** Longest any answer may take: the API's deadline (4.5 s) plus slack for a loaded machine; past it is a hang. */
const HANG_MS = 8_000;

interface Outcome {
  status: number;
  ms: number;
  retryAfter: string | null;
}
const outcomes: Outcome[] = [];

async function call(method: string, path: string, body?: unknown): Promise<Outcome> {
  const started = Date.now();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(HANG_MS),
  });
  await response.text();
  const outcome = { status: response.status, ms: Date.now() - started, retryAfter: response.headers.get('retry-after') };
  outcomes.push(outcome);
  return outcome;
}
let serial = 0;
const register = () => call('POST', '/api/v1/devices', { project_id: projectId, token: apnsToken(`outage-${(serial += 1)}`), platform: 'ios' });
const listTopics = () => call('GET', '/api/v1/topics');

/** Requests in a loop (as clients keep calling) until stopped; a hang fails the request and so the test. */
function background(request: () => Promise<Outcome>) {
  let running = true;
  const failures: unknown[] = [];
  const loop = (async () => {
    while (running) await request().catch((error: unknown) => failures.push(error));
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return failures;
    },
  };
}

/** Waits for an answer with `expected` status to a request sent after `since`, and for how long that took. */
async function firstAnswer(description: string, request: () => Promise<Outcome>, expected: (status: number) => boolean, timeoutMs: number) {
  const since = Date.now();
  const outcome = await waitFor(description, async () => {
    const answer = await request();
    return expected(answer.status) ? answer : undefined;
  }, timeoutMs);
  return { ...outcome, after: Date.now() - since };
}

beforeAll(async () => {
  infra = await startOwnInfra();
  const env = {
    KAFKA_BROKERS: infra.kafkaBrokers,
    MONGO_URL: `${infra.mongoUrl.replace(/\/$/, '')}/outage`,
    KAFKA_TOPIC_PREFIX: 'outage.',
    KAFKA_PARTITIONS: '1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info',
  };
  const { stdout } = await promisify(execFile)(process.execPath, ['services/cli/src/main.ts', 'projects', 'create', 'outage', '--json'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  });
  ({ id: projectId, api_key: apiKey } = JSON.parse(stdout) as { id: string; api_key: string });
  api = await retryOnPortClash(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    return startServiceProcessRetrying(
      'services/api/src/server.ts',
      { ...env, HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: String(await freePort()), HERALD_RATE_LIMITS: 'off' },
      'Server listening at',
    );
  });
  expect((await register()).status).toBe(201);
});
afterAll(async () => {
  try {
    expect(await api?.stop()).toBe(0);
  } finally {
    await infra?.close();
  }
});

describe('the API while a dependency is down', () => {
  it('answers 503 with Retry-After within 5 s when Kafka stops, never 500 nor a hang, and 2xx again once it is back', async () => {
    const load = background(register);
    await stopBroker(infra);
    const unavailable = await firstAnswer('503 to a registration after the broker stopped', register, (status) => status === 503, 30_000);
    expect(unavailable.ms).toBeLessThanOrEqual(5_000);
    expect(unavailable.retryAfter).toMatch(/^\d+$/);
    await restartInfra(infra);
    const recovered = await firstAnswer('2xx to a registration after the broker restarted', register, (status) => status < 300, 30_000);
    expect(recovered.after).toBeLessThanOrEqual(30_000);
    expect(await load.stop()).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.status >= 500 && outcome.status !== 503)).toEqual([]);
    expect(Math.max(...outcomes.map((outcome) => outcome.ms))).toBeLessThan(HANG_MS);
  }, 180_000);

  it('answers 503 with Retry-After within 5 s when the store stops, never 500 nor a hang, and 2xx again once it is back', async () => {
    outcomes.length = 0;
    const load = background(listTopics);
    await stopStore(infra);
    const unavailable = await firstAnswer('503 to a listing after the store stopped', listTopics, (status) => status === 503, 30_000);
    expect(unavailable.ms).toBeLessThanOrEqual(5_000);
    expect(unavailable.retryAfter).toMatch(/^\d+$/);
    await restartInfra(infra);
    const recovered = await firstAnswer('2xx to a listing after the store restarted', listTopics, (status) => status < 300, 30_000);
    expect(recovered.after).toBeLessThanOrEqual(30_000);
    expect((await register()).status).toBe(201);
    expect(await load.stop()).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.status >= 500 && outcome.status !== 503)).toEqual([]);
    expect(Math.max(...outcomes.map((outcome) => outcome.ms))).toBeLessThan(HANG_MS);
  }, 180_000);
});
