import type { OutgoingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { notificationReportSchema, receiptsCsvSchema } from '../../../../schemas/console-reads.ts';

export default async function notificationReport(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();

  fastify.get('/:id/report', { schema: notificationReportSchema }, async (request) => ({
    data: await fastify.services.reports.report(request.projectId, request.params.id),
  }));

  // Streamed as the ledger is read: taken over from fastify (like the event stream) so the request deadline
  // does not cut a long export; the headers set so far (security headers) go out with it.
  fastify.get('/:id/receipts.csv', { schema: receiptsCsvSchema }, async (request, reply) => {
    const lines = await fastify.services.reports.receiptsCsv(request.projectId, request.params.id);
    reply.hijack();
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="receipts-${request.params.id}.csv"`,
      'cache-control': 'no-store',
    });
    await pipeline(Readable.from(lines), reply.raw).catch((error: unknown) => {
      request.log.warn({ err: error }, 'receipts export ended early');
      reply.raw.destroy();
    });
  });
}
