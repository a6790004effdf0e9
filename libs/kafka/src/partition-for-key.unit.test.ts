import { createRequire } from 'node:module';
import { Partitioners } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '@herald/testing/seeded-random';
import { heraldPartitioner, murmur2, partitionForKey } from './partition-for-key.ts';

// kafkajs' own murmur2: the reference every record Herald ever wrote was partitioned by.
const kafkajsMurmur2 = createRequire(import.meta.url)('kafkajs/src/producer/partitioners/default/murmur2') as (key: Buffer | string) => number;

function randomKey(random: () => number): string {
  const length = Math.floor(random() * 90);
  let key = '';
  for (let i = 0; i < length; i += 1) {
    const pick = random();
    // ASCII mostly, then 2-, 3- and 4-byte UTF-8 characters: every tail length and high byte.
    key += pick < 0.7 ? String.fromCharCode(32 + Math.floor(random() * 95)) : pick < 0.8 ? 'é' : pick < 0.9 ? '€' : '😀';
  }
  return key;
}

describe('murmur2 and partitionForKey', () => {
  it("give kafkajs' values for random keys, strings and buffers alike", () => {
    const random = seededRandom(16);
    for (let n = 0; n < 5_000; n += 1) {
      const key = randomKey(random);
      expect(murmur2(Buffer.from(key))).toBe(kafkajsMurmur2(key));
      const bytes = Buffer.from(Array.from({ length: Math.floor(random() * 40) }, () => Math.floor(random() * 256)));
      expect(murmur2(bytes)).toBe(kafkajsMurmur2(bytes));
    }
  });

  it("place keys where kafkajs' default partitioner does", () => {
    const reference = Partitioners.DefaultPartitioner();
    const ours = heraldPartitioner();
    const random = seededRandom(7);
    for (const count of [1, 3, 6, 12, 50]) {
      const partitionMetadata = Array.from({ length: count }, (_, partitionId) => ({ partitionId, leader: 0, replicas: [0], isr: [0], partitionErrorCode: 0 }));
      for (let n = 0; n < 500; n += 1) {
        const key = randomKey(random);
        const expected = reference({ topic: 't', partitionMetadata, message: { key, value: null } });
        expect(partitionForKey(key, count)).toBe(expected);
        expect(ours({ topic: 't', partitionMetadata, message: { key, value: null } })).toBe(expected);
      }
      // A record that names its partition goes there, key or not.
      expect(ours({ topic: 't', partitionMetadata, message: { key: 'k', partition: count - 1, value: null } })).toBe(count - 1);
    }
  });

  it("the Java client's own test vectors (Kafka's UtilsTest.testMurmur2)", () => {
    const keys = ['21', 'foobar', 'a-little-bit-long-string', 'a-little-bit-longer-string', 'lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', 'abc'];
    expect(keys.map((key) => murmur2(Buffer.from(key)))).toEqual([-973932308, -790332482, -985981536, -1486304829, -58897971, 479470107]);
  });
});
