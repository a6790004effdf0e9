import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ErrorBody } from '../schemas/common.ts';

export default async function health(fastify: FastifyInstance): Promise<void> {
  fastify.get(
    '/healthz',
    { schema: { summary: 'The process is up', tags: ['operations'], response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  fastify.get(
    '/readyz',
    {
      schema: {
        summary: 'Kafka and MongoDB are reachable',
        tags: ['operations'],
        response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: ErrorBody },
      },
    },
    async (_request, reply) => {
      const problems = await fastify.services.checkReady();
      if (problems.length > 0) return reply.code(503).send({ errors: problems });
      return { status: 'ready' as const };
    },
  );
}
