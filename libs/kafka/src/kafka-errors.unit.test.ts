import { describe, expect, it } from 'vitest';
import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError, KafkaJSAggregateError } from 'kafkajs';
import { AppError, isRebalance, isRetriable } from '@herald/errors';
import { classifyKafkaError } from './kafka-errors.ts';

/** A broker error as kafkajs builds it from a protocol error code. */
const protocol = (type: string, retriable: boolean) => new KafkaJSProtocolError(Object.assign(new Error(type), { type, code: 1, retriable }));

describe('classifyKafkaError', () => {
  it('makes MESSAGE_TOO_LARGE permanent, even wrapped in retries exceeded', () => {
    const error = classifyKafkaError(new KafkaJSNumberOfRetriesExceeded(protocol('MESSAGE_TOO_LARGE', false), { retryCount: 5, retryTime: 100 }));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('KAFKA_RECORD_REJECTED');
    expect(isRetriable(error)).toBe(false);
  });

  it('makes a rebalance a retriable RebalanceError', () => {
    const error = classifyKafkaError(protocol('REBALANCE_IN_PROGRESS', false));
    expect(isRebalance(error)).toBe(true);
    expect(isRetriable(error)).toBe(true);
  });

  it('makes connection errors, sequence errors and aggregates of them retriable infrastructure', () => {
    for (const raw of [
      new KafkaJSConnectionError('Connection error: connect ECONNREFUSED'),
      protocol('OUT_OF_ORDER_SEQUENCE_NUMBER', false),
      new KafkaJSAggregateError('many', [new KafkaJSConnectionError('closed')]),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9092'), { code: 'ECONNREFUSED' }),
    ]) {
      const error = classifyKafkaError(raw);
      expect((error as AppError).code).toBe('KAFKA_UNAVAILABLE');
      expect(isRetriable(error)).toBe(true);
    }
  });

  it('leaves AppErrors and foreign errors alone', () => {
    const app = new AppError('VALIDATION_FAILED', 'bad');
    expect(classifyKafkaError(app)).toBe(app);
    const bug = new TypeError('x is undefined');
    expect(classifyKafkaError(bug)).toBe(bug);
  });
});
