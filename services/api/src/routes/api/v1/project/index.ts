import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { getProjectSchema, updateProjectSchema } from '../../../../schemas/project.ts';
import { ProjectService } from '../../../../services/project-service.ts';

/** The key's own project: no id in the path, so no other project is reachable. */
export default async function project(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = new ProjectService(fastify.services.admin);

  fastify.get('', { schema: getProjectSchema }, async (request) => service.get(request.projectId));

  fastify.patch('', { schema: updateProjectSchema }, async (request) => service.setTimezone(request.projectId, request.body.timezone));
}
