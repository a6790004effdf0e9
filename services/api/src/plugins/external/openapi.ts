import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorBody, Pagination } from '../../schemas/common.ts';
import { documentedStatuses } from '../../documented-statuses.ts';

const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** OpenAPI 3 generated from the route schemas, served at /docs (UI) and /docs/json. */
export default fp(
  async (fastify) => {
    fastify.addSchema(ErrorBody);
    fastify.addSchema(Pagination);
    // Before swagger's own hook: every route documents the statuses any request may get (limits, deadline, sizes).
    fastify.addHook('onRoute', (route) => {
      const schema = route.schema as { hide?: boolean; response?: Record<string, unknown>; body?: unknown } | undefined;
      if (schema === undefined || schema.hide === true) return;
      const response = (schema.response ??= {});
      for (const status of documentedStatuses(route.url, schema.body !== undefined)) response[status] ??= ErrorBody;
    });
    await fastify.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Herald push API',
          version: 'v1',
          description:
            'Multi-tenant push notifications. Every error body is `{"errors": ["..."]}` with messages that name the field. ' +
            'Commands answer once Kafka has acknowledged them; the listings and `GET /api/v1/notifications/{id}` read models that ' +
            'follow the event log within moments, so a resource created a moment ago may not be listed (or may answer 404) yet. ' +
            'Any request may answer 503 with `Retry-After` when Kafka or the store does not answer in time, and API routes 429 with ' +
            '`Retry-After` past a rate limit.',
        },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: "The project's API key" } },
        },
      },
    });
    // Its own Content-Security-Policy for its pages (the API's allows nothing): scripts from here only.
    await fastify.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });
  },
  { name: 'openapi' },
);
