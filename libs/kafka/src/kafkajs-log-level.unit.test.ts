import { describe, expect, it } from 'vitest';
import { kafkajsLogLevel } from './kafkajs-log-level.ts';

describe('kafkajsLogLevel', () => {
  it('moves broker error responses the caller handles to debug', () => {
    expect(kafkajsLogLevel({ namespace: 'Connection', level: 'error', message: 'Response Metadata(key: 3, version: 6)' })).toBe('debug');
    expect(kafkajsLogLevel({ namespace: 'Connection', level: 'error', message: 'Response CreateTopics(key: 19, version: 3)' })).toBe('debug');
  });

  it('moves the idempotent producer retry-limit warning to debug', () => {
    expect(kafkajsLogLevel({ namespace: 'Producer', level: 'warn', message: 'Limiting retries for the idempotent producer may invalidate EoS guarantees' })).toBe('debug');
  });

  it('moves the retries of a transaction begun while the last commit ended to debug', () => {
    const message = 'Failed to send messages: The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing';
    expect(kafkajsLogLevel({ namespace: 'Producer', level: 'error', message })).toBe('debug');
  });

  it('moves a consumer crash the cluster recovers from, and the restart line, to debug (one plain line is logged instead)', () => {
    expect(kafkajsLogLevel({ namespace: 'Consumer', level: 'error', message: 'Crash: KafkaJSProtocolError: The coordinator is loading and hence can\'t process requests' })).toBe('debug');
    expect(kafkajsLogLevel({ namespace: 'Consumer', level: 'error', message: 'Restarting the consumer in 300ms' })).toBe('debug');
  });

  it('keeps real problems at their level', () => {
    expect(kafkajsLogLevel({ namespace: 'Connection', level: 'error', message: 'Connection error: connect ECONNREFUSED 127.0.0.1:9092' })).toBe('error');
    expect(kafkajsLogLevel({ namespace: 'Consumer', level: 'error', message: 'Crash: KafkaJSNumberOfRetriesExceeded' })).toBe('error');
    expect(kafkajsLogLevel({ namespace: 'Producer', level: 'warn', message: 'Failed to send messages' })).toBe('warn');
    expect(kafkajsLogLevel({ namespace: 'Producer', level: 'error', message: 'Failed to send messages: This server is not the leader for that topic-partition' })).toBe('error');
  });
});
