import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { countSegmentSchema, createSegmentSchema, deleteSegmentSchema, getSegmentSchema, getSegmentVersionSchema, listSegmentsSchema, updateSegmentSchema } from '../../../../schemas/segments.ts';

export default async function segments(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = () => fastify.services.segments;

  fastify.post('', { schema: createSegmentSchema }, async (request, reply) => reply.code(201).send({ data: await service().create(request.projectId, request.body) }));

  fastify.get('', { schema: listSegmentsSchema }, async (request) => service().list(request.projectId, request.query));

  fastify.get('/:id', { schema: getSegmentSchema }, async (request) => ({ data: await service().get(request.projectId, request.params.id) }));

  fastify.put('/:id', { schema: updateSegmentSchema }, async (request) => ({ data: await service().update(request.projectId, request.params.id, request.body) }));

  fastify.get('/:id/versions/:version', { schema: getSegmentVersionSchema }, async (request) => ({ data: await service().get(request.projectId, request.params.id, request.params.version) }));

  fastify.get('/:id/count', { schema: countSegmentSchema }, async (request) => ({ data: await service().count(request.projectId, request.params.id) }));

  fastify.delete('/:id', { schema: deleteSegmentSchema }, async (request, reply) => {
    await service().delete(request.projectId, request.params.id);
    return reply.code(204).send(null);
  });
}
