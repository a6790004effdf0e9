import fp from 'fastify-plugin';
import type { AppDeps } from '../../app-deps.ts';

/**
 * Counts and times every answered request by route pattern (not raw URL: ids would explode the label set).
 * `/metrics` itself is served on METRICS_PORT (server.ts), not on the public port.
 */
export default fp<AppDeps>(
  async (fastify, deps) => {
    const { metrics } = deps;
    fastify.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
      metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    });
  },
  { name: 'metrics' },
);
