import type { ICustomPartitioner } from 'kafkajs';
import { Partitioners } from './kafkajs.ts';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/**
 * Kafka's murmur2 (the Java client's `Utils.murmur2`, which kafkajs' default
 * partitioner reproduces) on 32-bit integers. kafkajs computes it with its
 * own 64-bit Long objects, several allocations per 4 bytes of key: about 4 %
 * of the delivery process's CPU under one-device sends, for a hash per record
 * produced. The same value, checked against kafkajs' on random keys
 * (partition-for-key.unit.test.ts).
 */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i += 1) {
    const i4 = i * 4;
    let k = data[i4]! | (data[i4 + 1]! << 8) | (data[i4 + 2]! << 16) | (data[i4 + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The last 1–3 bytes (the Java client's fall-through switch).
  const tail = length & ~3;
  const rest = length - tail;
  if (rest === 3) h ^= data[tail + 2]! << 16;
  if (rest >= 2) h ^= data[tail + 1]! << 8;
  if (rest >= 1) {
    h ^= data[tail]!;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

const keyBytes = (key: Buffer | string): Uint8Array => (Buffer.isBuffer(key) ? key : Buffer.from(String(key)));

/**
 * The partition Herald's producers write a record with this key to, out of
 * `partitionCount`: murmur2 of the key, made positive, modulo the count (as
 * Kafka's Java client and kafkajs' default partitioner). The fan-out uses it
 * to know which device-events partition holds a device.
 */
export function partitionForKey(key: Buffer | string, partitionCount: number): number {
  return (murmur2(keyBytes(key)) & 0x7fffffff) % partitionCount;
}

/**
 * kafkajs' default partitioner with `partitionForKey` for keyed records: a
 * record's partition where it names one, its key's otherwise, round-robin
 * (kafkajs' own) when it has neither.
 */
export const heraldPartitioner: ICustomPartitioner = () => {
  const unkeyed = Partitioners.DefaultPartitioner();
  return (args) => {
    const { message, partitionMetadata } = args;
    if ((message.partition === null || message.partition === undefined) && message.key !== null && message.key !== undefined) {
      return partitionForKey(message.key, partitionMetadata.length);
    }
    return unkeyed(args);
  };
};
