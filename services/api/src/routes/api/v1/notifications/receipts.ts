import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { notificationReceiptsSchema } from '../../../../schemas/receipts.ts';

export default async function notificationReceipts(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  fastify.get('/:id/receipts', { schema: notificationReceiptsSchema }, async (request) =>
    fastify.services.notifications.receipts(request.projectId, request.params.id, request.query),
  );
}
