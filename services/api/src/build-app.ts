import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { validatorCompiler } from './validator-compiler.ts';
import { clientErrorHandler } from './client-error.ts';
import type { Logger } from '@herald/log';
import { newId } from '@herald/events';
import app from './app.ts';
import type { AppDeps } from './app-deps.ts';

/** Request bodies above this are refused with 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export async function buildApp(deps: AppDeps, logger: Logger): Promise<FastifyInstance> {
  // Widened to fastify's logger type so the instance has the default generics routes expect.
  const loggerInstance: FastifyBaseLogger = logger;
  const fastify = Fastify({
    loggerInstance,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : newId();
    },
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler,
  });
  fastify.setValidatorCompiler(validatorCompiler);
  await fastify.register(app, deps);
  return fastify;
}
