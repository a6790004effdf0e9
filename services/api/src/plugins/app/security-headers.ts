import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/**
 * Security headers on every answer (helmet's set: nosniff, no framing,
 * no referrer, cross-origin isolation, …). API answers are data, never a
 * page: their Content-Security-Policy allows nothing. The OpenAPI UI (/docs)
 * sets its own policy for its assets, and the console (routes/console.ts)
 * its own for its pages.
 */
export default fp(
  async (fastify) => {
    await fastify.register(helmet, {
      global: true,
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] } },
      frameguard: { action: 'deny' },
    });
  },
  { name: 'security-headers' },
);
