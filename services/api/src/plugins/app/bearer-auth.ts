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
 * Keys are checked through the services' key cache (a revoked key stops
 * working within its TTL).
 */
export default fp(
  async (fastify) => {
    fastify.decorateRequest('projectId', '');
    fastify.decorateRequest('apiKeyId', '');
    /** Authenticates without throwing: why not, when it does not (the rate limits count failures per address). */
    fastify.decorate('checkBearer', async (request: FastifyRequest): Promise<string | undefined> => {
      if (request.projectId !== '') return undefined;
      const apiKey = bearerToken(request.headers.authorization);
      if (apiKey === undefined) return 'Authorization header must be "Bearer <API key>"';
      const key = await fastify.services.keys.authenticate(apiKey);
      if (key === undefined) return 'API key is not valid';
      request.projectId = key.projectId;
      request.apiKeyId = key.keyId;
      return undefined;
    });
    // The rate-limit plugin (registered after this one) gives these their budget; without rate limits they do nothing.
    fastify.decorate('keyFailures', { refuseIfSpent: () => undefined, spend: async () => undefined });
    /**
     * The project of the request's bearer key: undefined without a header, 401 for a key that is not valid.
     * A failed check spends the address's budget for them, as on the bearer routes.
     */
    fastify.decorate('optionalBearerProject', async (request: FastifyRequest): Promise<string | undefined> => {
      if (request.headers.authorization === undefined) return undefined;
      fastify.keyFailures.refuseIfSpent(request);
      const problem = await fastify.checkBearer(request);
      if (problem !== undefined) {
        await fastify.keyFailures.spend(request);
        throw new UnauthorizedError(problem);
      }
      return request.projectId;
    });
    const authenticate = async (request: FastifyRequest): Promise<void> => {
      const problem = await fastify.checkBearer(request);
      if (problem !== undefined) throw new UnauthorizedError(problem);
    };
    fastify.addHook('onRoute', (route) => {
      if (!isBearerRoute(route.schema)) return;
      const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
      route.onRequest = [authenticate, ...existing];
    });
  },
  { name: 'bearer-auth', dependencies: ['services'] },
);
