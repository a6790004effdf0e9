import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freePort } from '@herald/local-infra';
import { startServiceProcesses, REPO_ROOT, type ServiceProcess } from './service-process.ts';
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
  /** Stops the services (asserting nothing); resolves with their exit codes. */
  stop(): Promise<{ api: number | null; projector: number | null }>;
}

/**
 * The whole system for end-to-end tests, each part its own process as in
 * production: the API and the projector against the test infrastructure,
 * under a namespace (topic prefix, database) of this test file's own.
 */
export async function startApiHarness(name: string): Promise<ApiHarness> {
  const env = await createTestEnv(name);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const serviceEnv = {
    KAFKA_BROKERS: env.kafkaBrokers,
    KAFKA_TOPIC_PREFIX: env.prefix,
    MONGO_URL: env.mongoUrl,
    KAFKA_PARTITIONS: '3',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info',
  };
  let api: ServiceProcess;
  let projector: ServiceProcess;
  try {
    [api, projector] = (await startServiceProcesses([
      { entry: 'services/api/src/server.ts', env: { ...serviceEnv, HOST: '127.0.0.1', PORT: String(port) }, readyLine: 'Server listening at' },
      { entry: 'services/projector/src/main.ts', env: serviceEnv, readyLine: 'projector consuming' },
    ])) as [ServiceProcess, ServiceProcess];
  } catch (error) {
    await env.close();
    throw error;
  }

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
    stop: async () => {
      const [apiExit, projectorExit] = await Promise.all([api.stop(), projector.stop()]);
      await env.close();
      return { api: apiExit, projector: projectorExit };
    },
  };
}
