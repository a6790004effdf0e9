import { describe, expect, it } from 'vitest';
import { KafkaJSAggregateError, KafkaJSNonRetriableError, KafkaJSProtocolError } from 'kafkajs';
import { isRetriableKafkaError } from './ensure-topics.ts';

// Protocol errors as kafkajs builds them from a CreateTopics response's error codes (its per-topic class extends this one).
const topicError = (type: string, retriable: boolean) => new KafkaJSProtocolError({ type, retriable, message: type, code: 0 } as never);

describe('isRetriableKafkaError', () => {
  it('retries an aggregate of timed-out and already-created topics', () => {
    expect(isRetriableKafkaError(new KafkaJSAggregateError('Topic creation errors', [topicError('REQUEST_TIMED_OUT', true), topicError('TOPIC_ALREADY_EXISTS', false)]))).toBe(true);
  });

  it('gives up on an aggregate holding a permanent error', () => {
    expect(isRetriableKafkaError(new KafkaJSAggregateError('Topic creation errors', [topicError('REQUEST_TIMED_OUT', true), topicError('INVALID_CONFIG', false)]))).toBe(false);
  });

  it('follows kafkajs for single errors', () => {
    expect(isRetriableKafkaError(topicError('UNKNOWN_TOPIC_OR_PARTITION', true))).toBe(true);
    expect(isRetriableKafkaError(new KafkaJSNonRetriableError('no'))).toBe(false);
    expect(isRetriableKafkaError(new Error('plain'))).toBe(false);
  });
});
