import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  createTemplateSchema,
  deleteTemplateSchema,
  getTemplateSchema,
  getTemplateVersionSchema,
  listTemplatesSchema,
  listTemplateVersionsSchema,
  updateTemplateSchema,
} from '../../../../schemas/templates.ts';

export default async function templates(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = () => fastify.services.templates;

  fastify.post('', { schema: createTemplateSchema }, async (request, reply) => reply.code(201).send({ data: await service().create(request.projectId, request.body) }));

  fastify.get('', { schema: listTemplatesSchema }, async (request) => service().list(request.projectId, request.query));

  fastify.get('/:id', { schema: getTemplateSchema }, async (request) => ({ data: await service().get(request.projectId, request.params.id) }));

  fastify.put('/:id', { schema: updateTemplateSchema }, async (request) => ({ data: await service().update(request.projectId, request.params.id, request.body) }));

  fastify.get('/:id/versions', { schema: listTemplateVersionsSchema }, async (request) => service().versions(request.projectId, request.params.id, request.query));

  fastify.get('/:id/versions/:version', { schema: getTemplateVersionSchema }, async (request) => ({ data: await service().get(request.projectId, request.params.id, request.params.version) }));

  fastify.delete('/:id', { schema: deleteTemplateSchema }, async (request, reply) => {
    await service().delete(request.projectId, request.params.id);
    return reply.code(204).send(null);
  });
}
