import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// fastify's own symbol (no public API reaches the listener this mends); request-signal.int.test.ts pins the behaviour.
const { kOnAbort } = createRequire(import.meta.url)('fastify/lib/symbols.js') as { kOnAbort: symbol };

type WithOnAbort = FastifyRequest & { [kOnAbort]?: (() => void) | null };

/**
 * With `handlerTimeout`, fastify 5.12 aborts `request.signal` when the
 * request's stream closes, and Node closes it as soon as the body has been
 * read: every POST aborted its signal while being handled, and each abort
 * built a DOMException with its stack (about 60 µs, an eighth of the API's
 * CPU per send). The signal is made to abort only when the client goes
 * away before the answer is written: on the response's `close` without
 * `finish`, as fastify's pending fix does. The deadline itself is untouched.
 */
export function abortSignalOnDisconnectOnly(request: FastifyRequest, reply: FastifyReply): void {
  const withOnAbort = request as WithOnAbort;
  const onAbort = withOnAbort[kOnAbort];
  if (typeof onAbort !== 'function') return;
  request.raw.removeListener('close', onAbort);
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) onAbort();
  });
}

export function mendRequestSignal(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    abortSignalOnDisconnectOnly(request, reply);
    done();
  });
}
