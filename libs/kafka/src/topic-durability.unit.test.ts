import { describe, expect, it } from 'vitest';
import { ConfigError } from '@herald/errors';
import { durabilityFor, weakerTopics, weakTopicsError } from './topic-durability.ts';

describe('durabilityFor', () => {
  it('defaults to 1/1 below three brokers and 3/2 from three on', () => {
    expect(durabilityFor(1, {})).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
    expect(durabilityFor(2, {})).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
    expect(durabilityFor(3, {})).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    expect(durabilityFor(5, {})).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
  });

  it('takes what is configured, and a minimum in sync that fits the copies', () => {
    expect(durabilityFor(1, { replicationFactor: 3, minInsyncReplicas: 2 })).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    expect(durabilityFor(5, { replicationFactor: 5 })).toEqual({ replicationFactor: 5, minInsyncReplicas: 2 });
    expect(durabilityFor(3, { replicationFactor: 1 })).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
  });

  it('refuses a minimum in sync above the replication factor, naming both settings', () => {
    expect(() => durabilityFor(3, { replicationFactor: 2, minInsyncReplicas: 3 })).toThrow(ConfigError);
    expect(() => durabilityFor(3, { replicationFactor: 2, minInsyncReplicas: 3 })).toThrow(/KAFKA_MIN_INSYNC_REPLICAS \(3\) must not exceed KAFKA_REPLICATION_FACTOR \(2\)/);
  });
});

describe('weakerTopics', () => {
  const wanted = { replicationFactor: 3, minInsyncReplicas: 2 };

  it('names each topic and setting weaker than configured', () => {
    expect(
      weakerTopics(wanted, [
        { topic: 'herald.device-events', replicationFactor: 3, minInsyncReplicas: 2 },
        { topic: 'herald.deliveries.apns', replicationFactor: 1, minInsyncReplicas: 1 },
        { topic: 'herald.notification-events', replicationFactor: 3, minInsyncReplicas: 1 },
      ]),
    ).toEqual([
      'topic herald.deliveries.apns has replication factor 1, weaker than KAFKA_REPLICATION_FACTOR=3',
      'topic herald.deliveries.apns has min.insync.replicas=1, weaker than KAFKA_MIN_INSYNC_REPLICAS=2',
      'topic herald.notification-events has min.insync.replicas=1, weaker than KAFKA_MIN_INSYNC_REPLICAS=2',
    ]);
  });

  it('accepts topics as strong or stronger', () => {
    expect(weakerTopics(wanted, [{ topic: 'a', replicationFactor: 5, minInsyncReplicas: 3 }])).toEqual([]);
  });

  it('makes a configuration error that says what to do', () => {
    const error = weakTopicsError(['topic a has replication factor 1, weaker than KAFKA_REPLICATION_FACTOR=3']);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('topic a has replication factor 1');
    expect(error.message).toContain('refusing to run');
  });
});
