import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '@herald/admin';
import { UnauthorizedError } from '@herald/errors';
import { isBearerRoute } from '../../rate-limit-keys.ts';

/**
 * A route whose schema declares `security: [{bearerAuth: []}]` requires a
 * live API key: the OpenAPI document and the enforcement share one source.
 * A route that also lists the empty scheme (`[{}, {bearerAuth: []}]`) takes
 * the key as optional: it reads `request.projectId` itself when it matters.
 */
export default fp(
  async (fastify) => {
    fastify.decorateRequest('projectId', '');
    /** The project of the request's bearer key: undefined without a header, 401 for a key that is not valid. */
    fastify.decorate('optionalBearerProject', async (request: FastifyRequest): Promise<string | undefined> => {
      if (request.headers.authorization === undefined) return undefined;
      await authenticate(request);
      return request.projectId;
    });
    const authenticate = async (request: FastifyRequest): Promise<void> => {
      const apiKey = bearerToken(request.headers.authorization);
      if (apiKey === undefined) throw new UnauthorizedError('Authorization header must be "Bearer <API key>"');
      const projectId = await fastify.services.admin.projectForKey(apiKey);
      if (projectId === undefined) throw new UnauthorizedError('API key is not valid');
      request.projectId = projectId;
    };
    fastify.addHook('onRoute', (route) => {
      if (!isBearerRoute(route.schema)) return;
      const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
      route.onRequest = [authenticate, ...existing];
    });
  },
  { name: 'bearer-auth', dependencies: ['services'] },
);
