import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { overviewSchema } from '../../../../schemas/console-reads.ts';

export default async function overview(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  fastify.get('', { schema: overviewSchema }, async (request) => ({
    data: await fastify.services.overview.overview(request.projectId, { hours: request.query.hours, includeTests: request.query.include_tests }),
  }));
}
