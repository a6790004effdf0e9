import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { getLiveActivitySchema, sendLiveActivitySchema } from '../../../../schemas/live-activities.ts';

export default async function liveActivities(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();

  fastify.post('', { schema: sendLiveActivitySchema }, async (request, reply) =>
    reply.code(201).send({ data: await fastify.services.liveActivities.send(request.projectId, request.body, request.id) }),
  );

  fastify.get('/:id', { schema: getLiveActivitySchema }, async (request) => ({ data: await fastify.services.liveActivities.get(request.projectId, request.params.id) }));
}
