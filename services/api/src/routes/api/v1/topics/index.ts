import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createTopicSchema, listTopicsSchema } from '../../../../schemas/topics.ts';

export default async function topics(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();

  fastify.get('', { schema: listTopicsSchema }, async (request) => fastify.services.topics.list(request.projectId, request.query));

  fastify.post('', { schema: createTopicSchema }, async (request, reply) => {
    const topic = await fastify.services.topics.create(request.projectId, request.body.name, request.id);
    return reply.code(201).send({ data: topic });
  });
}
