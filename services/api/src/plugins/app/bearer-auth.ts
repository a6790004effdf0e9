import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '@herald/admin';
import { UnauthorizedError } from '@herald/errors';

/**
 * A route whose schema declares `security: [{bearerAuth: []}]` requires a
 * live API key: the OpenAPI document and the enforcement share one source.
 */
export default fp(
  async (fastify) => {
    fastify.decorateRequest('projectId', '');
    const authenticate = async (request: FastifyRequest): Promise<void> => {
      const apiKey = bearerToken(request.headers.authorization);
      if (apiKey === undefined) throw new UnauthorizedError('Authorization header must be "Bearer <API key>"');
      const projectId = await fastify.services.admin.projectForKey(apiKey);
      if (projectId === undefined) throw new UnauthorizedError('API key is not valid');
      request.projectId = projectId;
    };
    fastify.addHook('onRoute', (route) => {
      const security = (route.schema as { security?: Array<Record<string, unknown>> } | undefined)?.security;
      if (security?.some((scheme) => 'bearerAuth' in scheme) !== true) return;
      const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
      route.onRequest = [authenticate, ...existing];
    });
  },
  { name: 'bearer-auth', dependencies: ['services'] },
);
