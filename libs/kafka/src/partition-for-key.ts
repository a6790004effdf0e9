import { Partitioners } from 'kafkajs';

const partitioner = Partitioners.DefaultPartitioner();

/**
 * The partition Herald's producers write a record with this key to, out of
 * `partitionCount` (kafkajs' default partitioner: murmur2 of the key, as
 * Kafka's Java client). The fan-out uses it to know which device-events
 * partition holds a device.
 */
export function partitionForKey(key: string, partitionCount: number): number {
  const partitionMetadata = Array.from({ length: partitionCount }, (_, partitionId) => ({ partitionId, leader: 0 }));
  return partitioner({ topic: '', partitionMetadata: partitionMetadata as never, message: { key, value: null } });
}
