import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { bearerToken } from '@herald/admin';
import type { LogPosition, LogRecord } from '@herald/kafka';
import { eventStreamSchema } from '../../../../schemas/events.ts';
import { closingFrame, sseFrame, streams } from '../../../../domain/event-stream.ts';

const HEARTBEAT_MS = 15_000;
/** A client that has not taken a frame for this long (its socket never drains) is let go: it frees its slot and reader. */
const STALLED_MS = 30_000;
/** After the closing frame, the connection is closed at the latest this long after (a client that does not read it). */
const CLOSE_GRACE_MS = 1_000;

export default async function events(app: FastifyInstance): Promise<void> {
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  // Open streams end before the server closes (a deploy, Ctrl-C): they are told to reconnect and their connections closed,
  // so server.close() is not left waiting on them; clients resume elsewhere with their last id.
  const open = new Set<(reason: string) => Promise<void>>();
  const SHUTTING_DOWN = 'the server is shutting down; reconnect with Last-Event-ID';
  // A stream still being set up when the server starts closing (joining the log takes seconds) ends as soon as it is
  // set up, with the same message: otherwise it would hold server.close() until the process's stop deadline.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
    await Promise.all([...open].map((finish) => finish(SHUTTING_DOWN)));
  });

  fastify.get('', { schema: eventStreamSchema }, async (request, reply) => {
    const service = fastify.services.events;
    const { raw } = reply;
    // The client may go away at any point, setting up included: from here on that frees everything.
    const gone = new AbortController();
    const onGone = () => gone.abort();
    raw.once('close', onGone);
    if (request.socket.destroyed) gone.abort();

    const ids = await service.idsFor(request.projectId);
    const from = ids.startOf(request.headers['last-event-id']);
    const types = service.typesOf(request.query.types);
    let position: LogPosition = {};
    let closed = false;
    // Called per record in log order per partition; a slow client pauses the reading (drain), so memory stays bounded.
    const onRecord = async (record: LogRecord) => {
      position = { ...position, [record.topic]: { ...position[record.topic], [record.partition]: record.offset + 1 } };
      if (closed || !streams(record.event, request.projectId, types)) return;
      if (!raw.write(sseFrame(ids.encode(position), record.event))) await drained();
    };
    const drained = async () => {
      const stalled = setTimeout(() => raw.destroy(), STALLED_MS);
      try {
        await once(raw, 'drain', { signal: gone.signal });
      } catch {
        // gone: the reading stops with the stream
      } finally {
        clearTimeout(stalled);
      }
    };
    const stream = await service.open(request.projectId, from, onRecord);
    position = structuredClone(stream.start);
    reply.hijack();
    if (gone.signal.aborted) {
      raw.destroy();
      await stream.close();
      return;
    }
    request.socket.setKeepAlive(true, 10_000);
    raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    raw.write(': herald event stream\n\n');

    const apiKey = bearerToken(request.headers.authorization) ?? '';
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
    // A revoked key ends its streams within the key cache's time.
    const keyCheck = setInterval(() => {
      void service.keyStillValid(apiKey, request.projectId).then((valid) => (valid ? undefined : finish('the API key was revoked')));
    }, service.keyCheckMs);
    const finish = async (reason?: string) => {
      if (closed) return;
      closed = true;
      open.delete(finish);
      clearInterval(heartbeat);
      clearInterval(keyCheck);
      clearTimeout(deadline);
      if (reason !== undefined && !raw.destroyed) {
        raw.end(closingFrame(reason));
        setTimeout(() => raw.destroy(), CLOSE_GRACE_MS).unref();
      } else raw.destroy();
      gone.abort();
      await stream.close();
    };
    // Streams end after a while so a process's streams turn over; the client resumes with its last id.
    const deadline = setTimeout(() => void finish('the stream reached its maximum duration; reconnect with Last-Event-ID'), service.maxDurationMs);
    open.add(finish);
    raw.off('close', onGone);
    raw.once('close', () => void finish());
    if (closing) await finish(SHUTTING_DOWN);
  });
}
