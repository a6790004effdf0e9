import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { explainDeviceSchema } from '../../../../schemas/explain.ts';

export default async function explainDevice(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  // Reads the log: its own deadline (the explain bounds, docs/reference/explain.md), not the request deadline of the store-backed routes.
  fastify.get('/:id/explain', { schema: explainDeviceSchema, handlerTimeout: fastify.services.explain.deadlineMs }, async (request) => ({
    data: await fastify.services.explain.device(request.projectId, request.params.id),
  }));
}
