import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { HttpOptions } from '../../http-options.ts';
import { RateLimitedError } from '../../retry-after.ts';
import { apiKeyFingerprint, isBearerRoute, isDeviceRoute, projectIdOf } from '../../rate-limit-keys.ts';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Rate limits counted by @fastify/rate-limit (in memory: each API instance
 * counts its own requests). Device-facing routes (no API key) are limited per
 * client address and per project; bearer routes per API key, counted before
 * the key is checked so guessing keys is limited too. A request over a limit
 * answers 429 with Retry-After. No limits when HERALD_RATE_LIMITS=off.
 */
export default fp<{ http?: HttpOptions }>(
  async (fastify, options) => {
    const limits = options.http?.rateLimits;
    if (limits === undefined) return;
    await fastify.register(rateLimit, { global: false });
    const common = { timeWindow: limits.windowMs, cache: 50_000 };
    const byAddress = fastify.createRateLimit({ ...common, max: limits.devicePerAddress });
    const byProject = fastify.createRateLimit({ ...common, max: limits.devicePerProject, keyGenerator: (request) => projectIdOf(request) ?? '' });
    const byKey = fastify.createRateLimit({ ...common, max: limits.bearerPerKey, keyGenerator: (request) => apiKeyFingerprint(request.headers.authorization) });

    const enforce =
      (limiter: Limiter, what: string, applies: (request: FastifyRequest) => boolean = () => true) =>
      async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
        if (!applies(request)) return;
        const result = await limiter(request);
        if (result.isAllowed || !result.isExceeded) return;
        void reply.header('x-ratelimit-limit', String(result.max));
        throw new RateLimitedError(what, Math.max(1, result.ttlInSeconds));
      };
    const fromAddress = enforce(byAddress, 'from this address');
    const forProject = enforce(byProject, 'for this project', (request) => projectIdOf(request) !== undefined);
    const withKey = enforce(byKey, 'with this API key', (request) => request.headers.authorization !== undefined);

    fastify.addHook('onRoute', (route) => {
      if (isBearerRoute(route.schema)) route.onRequest = [withKey, ...hooks(route.onRequest)] as RouteOptions['onRequest'];
      else if (isDeviceRoute(route.url)) {
        route.onRequest = [fromAddress, ...hooks(route.onRequest)] as RouteOptions['onRequest'];
        // The project may be named in the body, so it is counted once the body is parsed.
        route.preValidation = [forProject, ...hooks(route.preValidation)] as RouteOptions['preValidation'];
      }
    });
  },
  // After bearer-auth: its onRoute hook has run, so the limit is put in front of authentication.
  { name: 'rate-limit', dependencies: ['bearer-auth'] },
);

function hooks(value: unknown): unknown[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
