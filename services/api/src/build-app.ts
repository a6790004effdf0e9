import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { validatorCompiler } from './validator-compiler.ts';
import { clientErrorHandler } from './client-error.ts';
import type { Logger } from '@herald/log';
import { newId } from '@herald/events';
import app from './app.ts';
import type { AppDeps } from './app-deps.ts';
import { DEFAULT_HTTP_OPTIONS, type HttpOptions } from './http-options.ts';
import { requestSerializer } from './request-serializer.ts';
import { limitConnectionsPerAddress } from './connection-limit.ts';
import { mendRequestSignal } from './request-signal.ts';

/** Request bodies above this are refused with 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** How often Node checks connections for requests not received in time. */
const CHECK_MS = 500;
const receiveDeadline = (requestDeadlineMs: number) => Math.max(1_000, requestDeadlineMs - CHECK_MS);

export async function buildApp(deps: AppDeps, logger: Logger, http: HttpOptions = DEFAULT_HTTP_OPTIONS): Promise<FastifyInstance> {
  // Widened to fastify's logger type so the instance has the default generics routes expect.
  const loggerInstance: FastifyBaseLogger = logger.child({}, { serializers: { req: requestSerializer } });
  const fastify = Fastify({
    loggerInstance,
    bodyLimit: BODY_LIMIT_BYTES,
    // Every request has a deadline: past it fastify answers through the error handler (503 + Retry-After).
    handlerTimeout: http.requestDeadlineMs,
    // A slow client may not hold a connection past it either: headers and body must arrive by then (Node
    // answers 408 and closes the connection). Node checks every CHECK_MS (its default: every 30 s), so the
    // receive deadline is set CHECK_MS early: it fires before the handler's, and a slow body never outlives it.
    requestTimeout: receiveDeadline(http.requestDeadlineMs),
    http: { headersTimeout: receiveDeadline(http.requestDeadlineMs), connectionsCheckingInterval: CHECK_MS },
    trustProxy: http.trustProxy,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : newId();
    },
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler,
  });
  limitConnectionsPerAddress(fastify.server, http.connectionsPerAddress);
  fastify.setValidatorCompiler(validatorCompiler);
  mendRequestSignal(fastify);
  await fastify.register(app, { ...deps, http });
  return fastify;
}
