import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { updateMetadataSchema } from '../../../../schemas/metadata.ts';

export default async function metadata(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();

  fastify.patch('', { schema: updateMetadataSchema }, async (request) => {
    const { project_id: projectId, identifier, identifier_hash: identifierHash } = request.query;
    const bearerProjectId = await fastify.optionalBearerProject(request);
    return { data: await fastify.services.devices.updateMetadata(projectId, identifier, request.body, request.id, identifierHash, bearerProjectId) };
  });
}
