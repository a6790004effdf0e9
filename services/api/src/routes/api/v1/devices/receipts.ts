import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { deviceReceiptsSchema } from '../../../../schemas/receipts.ts';

export default async function deviceReceipts(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  fastify.get('/:id/receipts', { schema: deviceReceiptsSchema }, async (request) =>
    fastify.services.notifications.deviceReceipts(request.projectId, request.params.id, request.query),
  );
}
