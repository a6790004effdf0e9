import { AppError, InfrastructureError, isAppError } from '@herald/errors';
import { wrapMongoError } from '@herald/mongo';

/** Seconds a client is told to wait after a 503: long enough for a broker or store failover, short enough to notice recovery. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** 429: carries how long the client must wait, for the Retry-After header. */
export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;

  constructor(limit: string, retryAfterSeconds: number) {
    super('RATE_LIMITED', `too many requests ${limit}; retry in ${retryAfterSeconds} s`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * A dependency that does not answer is a retriable 503, not a 500: the store's
 * network and server-selection errors, kafkajs' connection and retry errors,
 * and fastify's handler deadline. Anything else is returned unchanged.
 */
export function asUnavailable(error: unknown): unknown {
  if (isAppError(error)) return error;
  const wrapped = wrapMongoError(error);
  if (wrapped !== error) return wrapped;
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  if (code === 'FST_ERR_HANDLER_TIMEOUT') return new InfrastructureError('INFRA_UNAVAILABLE', 'the request did not finish before its deadline', { cause: error });
  if (typeof name === 'string' && (name.startsWith('KafkaJS') || name === 'MongoPoolClearedError' || name === 'MongoNotConnectedError' || name === 'MongoTopologyClosedError')) {
    return new InfrastructureError(name.startsWith('KafkaJS') ? 'KAFKA_UNAVAILABLE' : 'MONGO_UNAVAILABLE', 'a dependency is not reachable', { cause: error });
  }
  return error;
}

/** The Retry-After a failed request answers with, if any. */
export function retryAfterSeconds(error: AppError): number | undefined {
  if (error instanceof RateLimitedError) return error.retryAfterSeconds;
  return error.status === 503 ? UNAVAILABLE_RETRY_AFTER_SECONDS : undefined;
}
