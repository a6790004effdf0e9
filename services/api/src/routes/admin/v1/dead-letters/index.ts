import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import rateLimit from '@fastify/rate-limit';
import { InfrastructureError, isAppError, UnauthorizedError } from '@herald/errors';
import { countDeadLetters, errorSummary, matches, readDeadLetters, redriveDeadLetters, type DeadLetterFilter, type HeraldKafka } from '@herald/kafka';
import type { AppDeps } from '../../../../app-deps.ts';
import { addressKey } from '../../../../rate-limit-keys.ts';
import { RateLimitedError } from '../../../../retry-after.ts';
import { isOperatorToken } from '../../../../operator-token.ts';
import { deadLetterCountsSchema, redriveSchema } from '../../../../schemas/operator.ts';

/** Reading every dead-letter topic (and a redrive's transaction) takes longer than an ordinary request's deadline. */
const OPERATOR_DEADLINE_MS = 30_000;

interface FilterInput {
  topic?: string;
  group?: string;
  error?: string;
  since?: string;
}

/** The library's filter from validated input (the schema checked `since`). */
function filterOf(input: FilterInput): DeadLetterFilter {
  return {
    ...(input.topic === undefined ? {} : { topic: input.topic }),
    ...(input.group === undefined ? {} : { group: input.group }),
    ...(input.error === undefined ? {} : { error: input.error }),
    ...(input.since === undefined ? {} : { since: new Date(input.since) }),
  };
}

/**
 * The operator's dead letters (`herald dlq list` / `redrive` over HTTP, the
 * same library): `GET /admin/v1/dead-letters` counts by topic, group and
 * error; `POST /admin/v1/dead-letters/redrive` writes matching ones back,
 * each at most once (`dry_run` shows which). Only with HERALD_ADMIN_TOKEN
 * set (otherwise no route: 404); every request is counted per address
 * before its token is checked, and the token is compared in constant time.
 * A project key is never accepted: dead letters hold every project's records.
 */
export default async function deadLetters(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const operator = deps.operator;
  if (operator === undefined) return;
  const fastify = app.withTypeProvider<TypeBoxTypeProvider>();
  await fastify.register(rateLimit, { global: false });
  const limiter = fastify.createRateLimit({ timeWindow: operator.windowMs, max: operator.perAddress, keyGenerator: (request) => `operator:${addressKey(request.ip)}` });
  const guard = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const counted = await limiter(request);
    if (!counted.isAllowed && counted.isExceeded) {
      void reply.header('x-ratelimit-limit', String(counted.max));
      throw new RateLimitedError('to the operator API from this address', Math.max(1, counted.ttlInSeconds));
    }
    if (!isOperatorToken(operator.token, request.headers.authorization)) {
      request.log.warn({ ip: request.ip, url: request.url }, 'operator API refused: not the admin token');
      throw new UnauthorizedError('Authorization must be "Bearer <admin token>" (HERALD_ADMIN_TOKEN)');
    }
  };
  fastify.addHook('onRequest', guard);
  const kafka = (): HeraldKafka => {
    if (deps.kafka === undefined) throw new InfrastructureError('KAFKA_UNAVAILABLE', 'this API has no Kafka connection for the operator API');
    return deps.kafka;
  };

  fastify.get('', { schema: deadLetterCountsSchema, handlerTimeout: OPERATOR_DEADLINE_MS }, async (request) => {
    const filter = filterOf(request.query);
    const entries = await kafkaCall(() => readDeadLetters(kafka()));
    return { data: countDeadLetters(entries.filter((entry) => matches(entry, filter))) };
  });

  fastify.post('/redrive', { schema: redriveSchema, handlerTimeout: OPERATOR_DEADLINE_MS }, async (request) => {
    const dryRun = request.body.dry_run === true;
    const selection = await kafkaCall(() => redriveDeadLetters(kafka(), filterOf(request.body), { dryRun }));
    request.log.info({ dry_run: dryRun, redriven: selection.selected.length, skipped: selection.alreadyRedriven.length }, 'operator redrive');
    return {
      data: {
        dry_run: dryRun,
        redriven: selection.selected.map((entry) => ({
          ref: entry.ref,
          source: `${entry.source.topic}:${entry.source.partition}:${entry.source.offset}`,
          group: entry.group,
          kind: entry.kind,
          error: errorSummary(entry.error),
          redrives: entry.redriveCount,
        })),
        already_redriven: selection.alreadyRedriven.map(({ entry, log }) => ({ ref: entry.ref, redriven_at: log.redriven_at, to: log.to })),
      },
    };
  });
}

/** Kafka's own failures are a 503 (Herald's errors, e.g. a redrive fenced by another, keep their status). */
async function kafkaCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new InfrastructureError('KAFKA_UNAVAILABLE', 'Kafka did not answer the operator request', { cause: error });
  }
}
