import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppDeps } from '../app-deps.ts';

/** Where `npm run build -w @herald/console` writes the console (the same place in the repository and the image). */
export const DEFAULT_CONSOLE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../console/dist');

/**
 * The console's pages: scripts, styles and connections from this origin only,
 * nothing inline, nothing evaluated; images from here or data: URLs (charts
 * export as such); never framed.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HIDDEN = { hide: true } as const;

/**
 * Serves the console's built assets (services/console) at /console/: hashed
 * assets cached for good and served precompressed (brotli or gzip), and index.html for every other path under
 * /console/ so each screen's URL can be reloaded. Not a plugin with
 * `fastify-plugin`: its policy and routes stay inside this context; the
 * security headers (registered globally) still apply.
 */
export default async function consolePages(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const dir = deps.consoleDir ?? DEFAULT_CONSOLE_DIR;
  fastify.addHook('onRequest', async (_request, reply) => {
    void reply.header('content-security-policy', CONSOLE_CSP);
  });
  if (!existsSync(join(dir, 'index.html'))) {
    fastify.log.warn({ dir }, 'the console is not built: /console/ answers 503 (npm run build -w @herald/console)');
    const notBuilt = async (_request: unknown, reply: FastifyReply) =>
      reply.code(503).send({ errors: ['the console is not built on this server: run `npm run build -w @herald/console` and restart the API'] });
    fastify.get('/console', { schema: HIDDEN }, notBuilt);
    fastify.get('/console/*', { schema: HIDDEN }, notBuilt);
    return;
  }
  await fastify.register(fastifyStatic, {
    root: join(dir, 'assets'),
    prefix: '/console/assets/',
    // File names carry a hash of their content.
    immutable: true,
    // The build writes each asset brotli- and gzip-compressed beside it (.br, .gz): served by Accept-Encoding, compressed once.
    preCompressed: true,
    maxAge: '365d',
    index: false,
  });
  const page = async (_request: unknown, reply: FastifyReply) => {
    // The page names the current assets: always asked again (the assets themselves are cached for good).
    void reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html', dir, { cacheControl: false });
  };
  fastify.get('/console', { schema: HIDDEN }, page);
  fastify.get('/console/*', { schema: HIDDEN }, page);
}
