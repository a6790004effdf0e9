import fp from 'fastify-plugin';
import type { AppDeps } from '../../app-deps.ts';

/** Counts and times every answered request by route pattern (not raw URL: ids would explode the label set). */
export default fp<AppDeps>(
  async (fastify, deps) => {
    const { metrics } = deps;
    fastify.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
      metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    });
    fastify.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  },
  { name: 'metrics' },
);
