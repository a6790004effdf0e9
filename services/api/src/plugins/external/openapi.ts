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
        openapi: '3.0.3',
        info: {
          title: 'Herald push API',
          version: 'v1',
          description:
            'Multi-tenant push notifications. Every error body is `{"errors": ["..."]}` with messages that name the field.',
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
