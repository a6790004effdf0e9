import fp from 'fastify-plugin';
import { illFormedMessages } from '../../domain/well-formed.ts';

/**
 * Every route, before its schema is checked: a string that is not
 * well-formed UTF-16 anywhere in the body, query, path parameters or headers
 * is refused with the route's validation status (400, or 422 where the
 * route answers validation failures so), naming each such field. One place
 * for all routes, so no route, service or consumer downstream sees one.
 */
export default fp(
  async (fastify) => {
    fastify.addHook('preValidation', async (request, reply) => {
      const errors = illFormedMessages({ body: request.body, query: request.query, params: request.params, headers: request.headers });
      if (errors.length === 0) return;
      return reply.code(request.routeOptions.config.validationStatus ?? 400).send({ errors });
    });
  },
  { name: 'well-formed-strings' },
);
