import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import autoload from '@fastify/autoload';
import type { AppDeps } from './app-deps.ts';
import type { HttpOptions } from './http-options.ts';

const here = dirname(fileURLToPath(import.meta.url));
const notPlugins = /\.(unit|int|e2e)\.test\.ts$/;

/**
 * The HTTP app as a plugin: it never reads the environment or listens.
 * Order: external plugins (OpenAPI), app plugins (services, auth, errors), routes.
 */
export default async function app(fastify: FastifyInstance, deps: AppDeps & { http?: HttpOptions }): Promise<void> {
  await fastify.register(autoload, { dir: join(here, 'plugins/external'), options: deps, ignorePattern: notPlugins });
  await fastify.register(autoload, { dir: join(here, 'plugins/app'), options: deps, ignorePattern: notPlugins });
  await fastify.register(autoload, { dir: join(here, 'routes'), options: deps, ignorePattern: notPlugins });
}
