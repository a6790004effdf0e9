import type { ProducerConfig } from 'kafkajs';
import { heraldPartitioner } from './partition-for-key.ts';

/**
 * What every Herald producer shares: idempotent (acks=all, one request in
 * flight so a retry cannot reorder records) and partitioned by
 * `heraldPartitioner`. Callers add a transactional id and its timeout.
 */
export function producerConfig(extra: ProducerConfig = {}): ProducerConfig {
  return { idempotent: true, maxInFlightRequests: 1, createPartitioner: heraldPartitioner, ...extra };
}
