import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { UnauthorizedError } from '@herald/errors';
import type { HttpOptions } from '../../http-options.ts';
import { RateLimitedError } from '../../retry-after.ts';
import { addressKey, isBearerRoute, isDeviceRoute, projectIdOf } from '../../rate-limit-keys.ts';
import { Budget } from '../../budget.ts';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Rate limits counted by @fastify/rate-limit (in memory: each API instance
 * counts its own requests). Client addresses count by `addressKey` (IPv6 by
 * its /64).
 *
 * - Bearer routes: a request with a valid key counts against that key,
 *   however `Authorization` is spelled; one without (missing, malformed,
 *   unknown or revoked key) counts against its address, and an address past
 *   that limit is answered 429 before any key is looked up.
 * - Device-facing routes: every request counts against its address; only the
 *   ones that succeed count against the project they name, so requests that
 *   prove nothing (unknown identifier, bad hash, unknown device) cannot use
 *   up the budget of the project's real devices. A registration that makes a
 *   new anonymous device counts against the project's new-device budget
 *   instead, refused (429) by the registration once that is spent. A key
 *   check that fails on a device-facing route (an optional key) spends the
 *   address's budget for them like one on a bearer route.
 *
 * A request over a limit answers 429 with Retry-After. No limits when HERALD_RATE_LIMITS=off.
 */
export default fp<{ http?: HttpOptions }>(
  async (fastify, options) => {
    const limits = options.http?.rateLimits;
    fastify.decorateRequest('newAnonymousDevice', false);
    const newDeviceBudget = { refuseIfSpent: (_request: FastifyRequest): void => undefined };
    fastify.decorate('newDeviceBudget', newDeviceBudget);
    if (limits === undefined) return;
    await fastify.register(rateLimit, { global: false });
    const common = { timeWindow: limits.windowMs, cache: 50_000 };
    const byAddress = fastify.createRateLimit({ ...common, max: limits.devicePerAddress, keyGenerator: (request) => addressKey(request.ip) });
    const unauthenticated = new Budget(
      fastify.createRateLimit({ ...common, max: limits.unauthenticatedPerAddress, keyGenerator: (request) => `unauth:${addressKey(request.ip)}` }),
      (request) => `unauth:${addressKey(request.ip)}`,
    );
    const byKey = fastify.createRateLimit({ ...common, max: limits.bearerPerKey, keyGenerator: (request) => `key:${request.apiKeyId}` });
    const byProject = new Budget(fastify.createRateLimit({ ...common, max: limits.devicePerProject, keyGenerator: (request) => projectIdOf(request) ?? '' }), (request) => projectIdOf(request) ?? '');
    const newDevicesOf = (request: FastifyRequest) => `new-devices:${projectIdOf(request) ?? ''}`;
    const newDevices = new Budget(fastify.createRateLimit({ ...common, max: limits.newDevicesPerProject, keyGenerator: newDevicesOf }), newDevicesOf);
    newDeviceBudget.refuseIfSpent = (request) => newDevices.refuseIfSpent(request, 'for new devices of this project');
    fastify.keyFailures.refuseIfSpent = (request) => unauthenticated.refuseIfSpent(request, 'without a valid API key from this address');
    fastify.keyFailures.spend = (request) => unauthenticated.spend(request, 'without a valid API key from this address');

    const count = async (limiter: Limiter, what: string, request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const result = await limiter(request);
      if (result.isAllowed || !result.isExceeded) return;
      void reply.header('x-ratelimit-limit', String(result.max));
      throw new RateLimitedError(what, Math.max(1, result.ttlInSeconds));
    };

    const bearer = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      unauthenticated.refuseIfSpent(request, 'without a valid API key from this address');
      const problem = await fastify.checkBearer(request);
      if (problem === undefined) return count(byKey, 'with this API key', request, reply);
      await unauthenticated.spend(request, 'without a valid API key from this address');
      throw new UnauthorizedError(problem);
    };
    const fromAddress = (request: FastifyRequest, reply: FastifyReply) => count(byAddress, 'from this address', request, reply);
    const forProject = async (request: FastifyRequest): Promise<void> => {
      if (projectIdOf(request) !== undefined) byProject.refuseIfSpent(request, 'for this project');
    };
    const projectSucceeded = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      if (reply.statusCode >= 400 || projectIdOf(request) === undefined) return;
      // A new anonymous device spends a budget of its own: strangers registering junk leave the project's devices theirs.
      await (request.newAnonymousDevice ? newDevices : byProject).record(request);
    };

    fastify.addHook('onRoute', (route) => {
      if (isBearerRoute(route.schema)) route.onRequest = [bearer, ...hooks(route.onRequest)] as RouteOptions['onRequest'];
      else if (isDeviceRoute(route.url)) {
        route.onRequest = [fromAddress, ...hooks(route.onRequest)] as RouteOptions['onRequest'];
        // The project may be named in the body, so it is checked once the body is parsed, and counted once the answer is a success.
        route.preValidation = [forProject, ...hooks(route.preValidation)] as RouteOptions['preValidation'];
        route.onResponse = [projectSucceeded, ...hooks(route.onResponse)] as RouteOptions['onResponse'];
      }
    });
  },
  // After bearer-auth: its onRoute hook has run, so the limit is put in front of authentication.
  { name: 'rate-limit', dependencies: ['bearer-auth'] },
);

function hooks(value: unknown): unknown[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
