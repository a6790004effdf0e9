import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createWebhookSchema, deleteWebhookSchema, getWebhookSchema, listWebhooksSchema, replayWebhookSchema, updateWebhookSchema } from '../../../../schemas/webhooks.ts';

export default async function webhooks(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = () => fastify.services.webhooks;

  fastify.post('', { schema: createWebhookSchema }, async (request, reply) => reply.code(201).send(await service().create(request.projectId, request.body)));

  fastify.get('', { schema: listWebhooksSchema }, async (request) => service().list(request.projectId));

  fastify.get('/:id', { schema: getWebhookSchema }, async (request) => service().get(request.projectId, request.params.id));

  fastify.patch('/:id', { schema: updateWebhookSchema }, async (request) => service().update(request.projectId, request.params.id, request.body));

  fastify.delete('/:id', { schema: deleteWebhookSchema }, async (request, reply) => {
    await service().delete(request.projectId, request.params.id);
    return reply.code(204).send(null);
  });

  fastify.post('/:id/replay', { schema: replayWebhookSchema }, async (request, reply) => reply.code(202).send(await service().replay(request.projectId, request.params.id, request.body)));
}
