import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorBody, Pagination } from '../../schemas/common.ts';

/** OpenAPI 3 generated from the route schemas, served at /docs (UI) and /docs/json. */
export default fp(
  async (fastify) => {
    fastify.addSchema(ErrorBody);
    fastify.addSchema(Pagination);
    await fastify.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Herald push API',
          version: 'v1',
          description:
            'Multi-tenant push notifications. Every error body is `{"errors": ["..."]}` with messages that name the field. ' +
            'Commands answer once Kafka has acknowledged them; the listings and `GET /api/v1/notifications/{id}` read models that ' +
            'follow the event log within moments, so a resource created a moment ago may not be listed (or may answer 404) yet.',
        },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: "The project's API key" } },
        },
      },
    });
    await fastify.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'openapi' },
);
