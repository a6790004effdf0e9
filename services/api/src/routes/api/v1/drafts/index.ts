import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createDraftSchema, deleteDraftSchema, getDraftSchema, listDraftsSchema, updateDraftSchema } from '../../../../schemas/drafts.ts';

export default async function drafts(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = () => fastify.services.drafts;

  fastify.post('', { schema: createDraftSchema }, async (request, reply) => reply.code(201).send({ data: await service().create(request.projectId, request.body) }));

  fastify.get('', { schema: listDraftsSchema }, async (request) => service().list(request.projectId, request.query));

  fastify.get('/:id', { schema: getDraftSchema }, async (request) => ({ data: await service().get(request.projectId, request.params.id) }));

  fastify.put('/:id', { schema: updateDraftSchema }, async (request) => ({ data: await service().update(request.projectId, request.params.id, request.body) }));

  fastify.delete('/:id', { schema: deleteDraftSchema }, async (request, reply) => {
    await service().delete(request.projectId, request.params.id);
    return reply.code(204).send(null);
  });
}
