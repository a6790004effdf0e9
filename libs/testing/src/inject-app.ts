import type { FastifyInstance } from 'fastify';
import { AdminStore } from '@herald/admin';
import { ensureAdminIndexes, ReadModelRegistry } from '@herald/mongo';
import { createMetrics } from '@herald/metrics';
import { createTestEnv, type TestEnv } from './test-env.ts';

export interface InjectedResponse {
  status: number;
  body: Record<string, unknown> | undefined;
}

export interface InjectHarness {
  env: TestEnv;
  app: FastifyInstance;
  createProject(name: string): Promise<{ id: string; api_key: string }>;
  request(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, options?: { key?: string; body?: unknown }): Promise<InjectedResponse>;
  close(): Promise<void>;
}

/**
 * The API's fastify app in this test process, on the real Kafka and store of
 * the test setup, driven with `app.inject`: for route behaviour (validation,
 * auth, status codes, what is published) where no process boundary is under
 * test. `build` is the API's buildApp, passed in so this library does not
 * depend on the service.
 */
export async function startInjectHarness(
  name: string,
  build: (deps: {
    producer: TestEnv['producer'];
    db: TestEnv['mongo']['db'];
    admin: AdminStore;
    readModels: ReadModelRegistry;
    metrics: ReturnType<typeof createMetrics>;
    checkReady: () => Promise<string[]>;
  }, logger: TestEnv['logger']) => Promise<FastifyInstance>,
): Promise<InjectHarness> {
  const env = await createTestEnv(name);
  await ensureAdminIndexes(env.mongo.db);
  const admin = new AdminStore(env.mongo.db);
  const app = await build(
    { producer: env.producer, db: env.mongo.db, admin, readModels: new ReadModelRegistry(env.mongo.db), metrics: createMetrics('api'), checkReady: async () => [] },
    env.logger,
  );
  await app.ready();
  return {
    env,
    app,
    createProject: async (projectName) => {
      const { project, apiKey } = await admin.createProject(projectName);
      return { id: project._id, api_key: apiKey };
    },
    request: async (method, path, options = {}) => {
      const response = await app.inject({
        method,
        url: path,
        headers: options.key === undefined ? {} : { authorization: `Bearer ${options.key}` },
        ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
      });
      const text = response.body;
      return { status: response.statusCode, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
    },
    close: async () => {
      await app.close();
      await env.close();
    },
  };
}
