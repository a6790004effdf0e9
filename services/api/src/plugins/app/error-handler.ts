import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { isAppError, validationMessages } from '@herald/errors';
import { asUnavailable, retryAfterSeconds } from '../../retry-after.ts';

/**
 * Maps every failure to the spec's `{"errors": [...]}` body; 5xx bodies never carry internals.
 * A dependency that does not answer (and the request deadline) is a 503 with Retry-After, never a 500.
 */
export default fp(
  async (fastify) => {
    fastify.setErrorHandler((raw: FastifyError, request, reply) => {
      const error = asUnavailable(raw) as FastifyError;
      if (error.validation !== undefined) {
        const errors = validationMessages(error.validation);
        const status = request.routeOptions.config.validationStatus ?? 400;
        return reply.code(status).send({ errors: errors.length > 0 ? errors : [`${error.validationContext ?? 'request'} is invalid`] });
      }
      if (isAppError(error)) {
        const retryAfter = retryAfterSeconds(error);
        if (retryAfter !== undefined) void reply.header('retry-after', String(retryAfter));
        if (error.status === 503) request.log.warn({ err: error }, 'request answered 503: a dependency is unavailable');
        else if (error.status >= 500) request.log.error({ err: error }, 'request failed');
        return reply.code(error.status).send({ errors: error.status >= 500 ? ['the service is temporarily unavailable'] : [...error.details] });
      }
      const status = error.statusCode ?? 500;
      if (status < 500) return reply.code(status).send({ errors: [clientMessage(error)] });
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send({ errors: ['internal error'] });
    });

    // A known path asked with a method it does not have is 405 (with Allow), not 404.
    const routes: Array<{ pattern: RegExp; method: string }> = [];
    fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ pattern: routePattern(route.url ?? route.path), method });
    });
    fastify.addHook('onRequest', async (request, reply) => {
      if (!request.is404) return;
      const path = request.url.split('?')[0] ?? '';
      const allowed = [...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))];
      if (allowed.length === 0) return;
      return reply.code(405).header('allow', allowed.join(', ')).send({ errors: [`${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`] });
    });

    fastify.setNotFoundHandler((request, reply) => {
      return reply.code(404).send({ errors: [`${request.method} ${request.url.split('?')[0]} is not a known route`] });
    });
  },
  { name: 'error-handler' },
);

/** Fastify's own 4xx errors (body parsing, media type, size) reworded for API clients. */
function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'body must be valid JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'body must not be larger than 1 MB';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Content-Type must be application/json';
    default:
      return error.message;
  }
}

/** `/api/v1/notifications/:id/open` → a RegExp matching its concrete paths (trailing slash optional). */
function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source.replace(/\/$/, '')}/?$`);
}
