import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { getWebPushPublicKeySchema } from '../../../../schemas/webpush.ts';

export default async function webpush(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();

  fastify.get('/public-key', { schema: getWebPushPublicKeySchema }, async (request) => ({ data: await fastify.services.devices.webPushKeys.publicKey(request.query.project_id) }));
}
