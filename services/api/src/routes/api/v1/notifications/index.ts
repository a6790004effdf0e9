import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { validationMessages } from '@herald/errors';
import { cancelNotificationSchema, getNotificationSchema, listNotificationsSchema, openNotificationSchema, replaceNotificationSchema, sendNotificationSchema, steerNotificationSchema } from '../../../../schemas/notifications.ts';
import type { NotificationInput } from '../../../../domain/notification-request.ts';
import notificationReceipts from './receipts.ts';
import notificationReport from './report.ts';
import explainNotification from './explain.ts';
import { dryRunSchema } from '../../../../schemas/console-reads.ts';

export default async function notifications(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  // @fastify/autoload loads only index.ts of a directory that has one: the receipts routes are registered here.
  await app.register(notificationReceipts);
  await app.register(notificationReport);
  await app.register(explainNotification);

  // Validation is attached, not thrown, so the schema's problems and the
  // payload-size check are reported together in one 422.
  fastify.post('', { schema: sendNotificationSchema, attachValidation: true, config: { validationStatus: 422 } }, async (request, reply) => {
    const schemaProblems = request.validationError?.validation === undefined ? [] : validationMessages(request.validationError.validation as never);
    const body = request.body as { notification?: unknown } | null;
    const input = (typeof body === 'object' && body !== null ? body.notification : undefined) as NotificationInput;
    const notification = await fastify.services.notifications.send(request.projectId, input, schemaProblems, request.headers['idempotency-key'], request.id);
    return reply.code(201).send({ data: notification });
  });

  // The same body and checks as a send; counts the audience instead of sending.
  fastify.post('/dry-run', { schema: dryRunSchema, attachValidation: true, config: { validationStatus: 422 } }, async (request) => {
    const schemaProblems = request.validationError?.validation === undefined ? [] : validationMessages(request.validationError.validation as never);
    const body = request.body as { notification?: unknown } | null;
    const input = (typeof body === 'object' && body !== null ? body.notification : undefined) as NotificationInput;
    return { data: await fastify.services.notifications.dryRun(request.projectId, input, schemaProblems) };
  });

  fastify.get('', { schema: listNotificationsSchema }, async (request) => fastify.services.notifications.list(request.projectId, request.query));

  fastify.get('/:id', { schema: getNotificationSchema }, async (request) => {
    const notification = await fastify.services.notifications.get(request.projectId, request.params.id);
    // Only a cancelled send can have been replaced: the others cost no second read.
    const replacedBy = notification.status === 'cancelled' ? await fastify.services.reports.replacedBy(request.projectId, request.params.id) : undefined;
    return { data: replacedBy === undefined ? notification : { ...notification, replaced_by: replacedBy } };
  });

  fastify.post('/:id/cancel', { schema: cancelNotificationSchema }, async (request, reply) => {
    const notification = await fastify.services.notifications.cancel(request.projectId, request.params.id, request.id);
    return reply.code(202).send({ data: notification });
  });

  // An edit of a scheduled send: the old one cancelled, a new one replacing it (replaceNotificationSchema says why not in place).
  fastify.post('/:id/replace', { schema: replaceNotificationSchema, attachValidation: true, config: { validationStatus: 422 } }, async (request, reply) => {
    const schemaProblems = request.validationError?.validation === undefined ? [] : validationMessages(request.validationError.validation as never);
    const body = request.body as { notification?: unknown } | null;
    const input = (typeof body === 'object' && body !== null ? body.notification : undefined) as NotificationInput;
    const notification = await fastify.services.notifications.send(request.projectId, input, schemaProblems, request.headers['idempotency-key'], request.id, request.params.id);
    return reply.code(201).send({ data: notification });
  });

  fastify.patch('/:id', { schema: steerNotificationSchema, config: { validationStatus: 422 } }, async (request, reply) => {
    const notification = await fastify.services.notifications.steer(request.projectId, request.params.id, request.body, request.id);
    return reply.code(202).send({ data: notification });
  });

  fastify.put('/:id/open', { schema: openNotificationSchema }, async (request, reply) => {
    await fastify.services.notifications.open(request.params.id, request.body, request.id);
    return reply.code(204).send(null);
  });
}
