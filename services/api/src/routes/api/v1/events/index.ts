import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { LogPosition, LogRecord } from '@herald/kafka';
import { eventStreamSchema } from '../../../../schemas/events.ts';
import { encodeStreamId, sseFrame, streams } from '../../../../domain/event-stream.ts';

const HEARTBEAT_MS = 15_000;

export default async function events(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  // Open streams end when the server closes (a deploy): clients resume elsewhere with their last id.
  const open = new Set<() => Promise<void>>();
  fastify.addHook('onClose', async () => {
    await Promise.all([...open].map((finish) => finish()));
  });

  fastify.get('', { schema: eventStreamSchema }, async (request, reply) => {
    const service = fastify.services.events;
    const from = service.startOf(request.headers['last-event-id']);
    const types = service.typesOf(request.query.types);
    const { raw } = reply;
    let position: LogPosition = {};
    let closed = false;
    // Called per record in log order per partition; a slow client pauses the reading (drain), so memory stays bounded.
    const onRecord = async (record: LogRecord) => {
      position = { ...position, [record.topic]: { ...position[record.topic], [record.partition]: record.offset + 1 } };
      if (closed || !streams(record.event, request.projectId, types)) return;
      if (!raw.write(sseFrame(encodeStreamId(position), record.event))) await new Promise((resolve) => raw.once('drain', resolve));
    };
    const stream = await service.open(request.projectId, from, onRecord);
    position = structuredClone(stream.start);
    reply.hijack();
    raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    raw.write(': herald event stream\n\n');
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const finish = async () => {
      if (closed) return;
      closed = true;
      open.delete(finish);
      clearInterval(heartbeat);
      clearTimeout(deadline);
      await stream.close();
      raw.end();
    };
    // Streams end after a while so a process's streams turn over; the client resumes with its last id.
    const deadline = setTimeout(() => void finish(), service.maxDurationMs);
    open.add(finish);
    raw.on('close', () => void finish());
  });
}
