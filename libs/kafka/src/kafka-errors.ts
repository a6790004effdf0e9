import { AppError, InfrastructureError, RebalanceError, isAppError } from '@herald/errors';

/** Broker answers that mean "this group is being rebalanced": the member must rejoin, the work moves. */
const REBALANCE_TYPES = new Set(['REBALANCE_IN_PROGRESS', 'ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID', 'NOT_COORDINATOR_FOR_GROUP', 'FENCED_INSTANCE_ID']);

/** Broker answers that no retry can change: the records themselves are refused. */
const PERMANENT_TYPES = new Set([
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_RECORD',
  'INVALID_REQUIRED_ACKS',
  'TOPIC_AUTHORIZATION_FAILED',
  'INVALID_TOPIC_EXCEPTION',
  'UNSUPPORTED_COMPRESSION_TYPE',
]);

/** Node socket errors seen when the broker is down or restarting. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

interface Shaped {
  name?: unknown;
  type?: unknown;
  code?: unknown;
  cause?: unknown;
  originalError?: unknown;
  errors?: unknown;
}

/** The error and everything it wraps (cause, originalError, aggregated errors), breadth first. */
function chain(error: unknown): Shaped[] {
  const seen: Shaped[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.length < 50) {
    const current = queue.shift();
    if (current === null || typeof current !== 'object' || seen.includes(current)) continue;
    const shaped = current as Shaped;
    seen.push(shaped);
    queue.push(shaped.cause, shaped.originalError);
    if (Array.isArray(shaped.errors)) queue.push(...(shaped.errors as unknown[]));
  }
  return seen;
}

const isKafkaJs = (item: Shaped) => typeof item.name === 'string' && item.name.startsWith('KafkaJS');

/**
 * What a kafkajs failure means for Herald: records the broker refuses for
 * good are permanent (KAFKA_RECORD_REJECTED, never retried); a group
 * rebalance is a RebalanceError (abandon the chunk, the new owner redoes
 * it); every other kafkajs or socket failure is infrastructure
 * (KAFKA_UNAVAILABLE, retried with back-off). AppErrors pass through, and
 * errors that are not Kafka's are returned unchanged for the caller to judge.
 */
export function classifyKafkaError(error: unknown): unknown {
  if (isAppError(error)) return error;
  const items = chain(error);
  const types = items.map((item) => item.type).filter((type): type is string => typeof type === 'string');
  const permanent = types.find((type) => PERMANENT_TYPES.has(type));
  if (permanent !== undefined) return new AppError('KAFKA_RECORD_REJECTED', `Kafka refused the records (${permanent})`, { cause: error });
  if (types.some((type) => REBALANCE_TYPES.has(type))) return new RebalanceError(undefined, { cause: error });
  if (items.some(isKafkaJs)) return new InfrastructureError('KAFKA_UNAVAILABLE', 'Kafka did not answer as expected', { cause: error });
  if (items.some((item) => typeof item.code === 'string' && NETWORK_CODES.has(item.code))) {
    return new InfrastructureError('KAFKA_UNAVAILABLE', 'Kafka is not reachable', { cause: error });
  }
  return error;
}
