import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createTopicSchema, deleteTopicSchema, getTopicSchema, listTopicsSchema, reclaimTopicsSchema } from '../../../../schemas/topics.ts';

export default async function topics(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();

  fastify.get('', { schema: listTopicsSchema }, async (request) => fastify.services.topics.list(request.projectId, request.query));

  fastify.post('', { schema: createTopicSchema }, async (request, reply) => {
    const topic = await fastify.services.topics.create(request.projectId, request.body.name, request.id);
    return reply.code(201).send({ data: topic });
  });

  fastify.post('/reclaim', { schema: reclaimTopicsSchema }, async (request) => ({ data: await fastify.services.topics.reclaim(request.projectId, request.id) }));

  fastify.get('/:id', { schema: getTopicSchema }, async (request) => ({ data: await fastify.services.topics.get(request.projectId, request.params.id) }));

  fastify.delete('/:id', { schema: deleteTopicSchema }, async (request, reply) => {
    await fastify.services.topics.delete(request.projectId, request.params.id, request.id);
    return reply.code(204).send(null);
  });
}
