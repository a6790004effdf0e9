import type { AppDeps } from './app-deps.ts';
import { AdminStore } from '@herald/admin';
import type { EventProducer } from '@herald/kafka';
import { createLogger } from '@herald/log';
import { createMetrics } from '@herald/metrics';
import { ReadModelRegistry, unreachableStore } from '@herald/mongo';
import { buildApp } from './build-app.ts';

/** Stands in for Kafka and the store while the document is generated: nothing may use them. */
const unavailable = (what: string): never => {
  throw new Error(`${what} is not available while the OpenAPI document is generated`);
};
const noStore = unreachableStore('the store is not available while the OpenAPI document is generated');
const noProducer = new Proxy({}, { get: () => unavailable('Kafka') }) as unknown as EventProducer;

/**
 * The OpenAPI document exactly as the API serves it at /docs/json, without
 * Kafka or a store: the app is built with stand-ins that nothing touches
 * until a request needs them, and only /docs/json is asked. Used where the
 * document is needed at build time (the console's typed client).
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const deps: AppDeps = {
    producer: noProducer,
    db: noStore,
    admin: new AdminStore(noStore),
    readModels: new ReadModelRegistry(noStore),
    metrics: createMetrics('api'),
    checkReady: async () => [],
    consoleDir: '/nonexistent',
  };
  const app = await buildApp(deps, createLogger({ name: 'openapi', level: 'silent' }));
  try {
    const response = await app.inject({ method: 'GET', url: '/docs/json' });
    if (response.statusCode !== 200) throw new Error(`/docs/json answered ${response.statusCode}`);
    return response.json<Record<string, unknown>>();
  } finally {
    await app.close();
  }
}
