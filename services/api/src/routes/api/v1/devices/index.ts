import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { deleteDeviceSchema, getDeviceSchema, listDevicesSchema, purgeDevicesSchema, registerDeviceSchema, updateDeviceSchema } from '../../../../schemas/devices.ts';
import deviceReceipts from './receipts.ts';
import explainDevice from './explain.ts';
import liveActivityTokens from './live-activity-tokens.ts';

export default async function devices(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  // @fastify/autoload loads only index.ts of a directory that has one: the receipts routes are registered here.
  await app.register(deviceReceipts);
  await app.register(explainDevice);
  await app.register(liveActivityTokens);

  fastify.post('', { schema: registerDeviceSchema }, async (request, reply) => {
    const bearerProjectId = await fastify.optionalBearerProject(request);
    const registered = await fastify.services.devices.register(request.body, {
      correlationId: request.id,
      bearerProjectId,
      admitNewAnonymous: () => fastify.newDeviceBudget.refuseIfSpent(request),
    });
    request.newAnonymousDevice = registered.newAnonymous;
    return reply.code(201).send({ data: registered.device });
  });

  fastify.get('', { schema: listDevicesSchema }, async (request) => {
    return fastify.services.devices.list(request.projectId, request.query);
  });

  fastify.post('/purge', { schema: purgeDevicesSchema }, async (request) => ({ data: await fastify.services.devices.purgeDeleted(request.projectId, request.id) }));

  fastify.get('/:id', { schema: getDeviceSchema }, async (request) => ({ data: await fastify.services.devices.get(request.projectId, request.params.id) }));

  fastify.patch('/:id', { schema: updateDeviceSchema }, async (request) => ({ data: await fastify.services.devices.unlink(request.projectId, request.params.id, request.id) }));

  fastify.delete('/:id', { schema: deleteDeviceSchema }, async (request, reply) => {
    await fastify.services.devices.unregister(request.projectId, request.params.id, request.id);
    return reply.code(204).send(null);
  });
}
