import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { attachLiveActivityTokenSchema, deleteLiveActivityTokenSchema, listLiveActivityTokensSchema } from '../../../../schemas/live-activity-tokens.ts';

export default async function liveActivityTokens(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();

  fastify.post('/:id/live-activity-tokens', { schema: attachLiveActivityTokenSchema }, async (request, reply) => {
    const bearerProjectId = await fastify.optionalBearerProject(request);
    return reply.code(201).send({ data: await fastify.services.liveActivityTokens.attach(request.params.id, request.body, bearerProjectId) });
  });

  fastify.get('/:id/live-activity-tokens', { schema: listLiveActivityTokensSchema }, async (request) => ({
    data: await fastify.services.liveActivityTokens.list(request.projectId, request.params.id),
  }));

  fastify.delete('/:id/live-activity-tokens/:token_id', { schema: deleteLiveActivityTokenSchema }, async (request, reply) => {
    await fastify.services.liveActivityTokens.remove(request.projectId, request.params.id, request.params.token_id);
    return reply.code(204).send(null);
  });
}
