import { describe, expect, it } from 'vitest';
import { v5 as uuidV5 } from 'uuid';
import { deliveryBatchId, deviceIdFor, newId, parseBatchId, retryBatchId, topicIdFor } from './identity.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newId', () => {
  it('makes distinct version-7 ids that sort in the order they were made, within a millisecond too', () => {
    const ids = Array.from({ length: 5_000 }, () => newId());
    expect(ids.every((id) => UUID_V7.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('starts with the current time', () => {
    const before = Date.now();
    const id = newId();
    const msecs = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(msecs).toBeGreaterThanOrEqual(before);
    expect(msecs).toBeLessThanOrEqual(Date.now() + 1);
  });
});

describe('deviceIdFor and topicIdFor', () => {
  const NAMESPACE = '6f1f3a52-5c0e-4c43-9d0b-6a0a4e1c2b7d';

  it('keep the ids every stored device and topic has', () => {
    expect(deviceIdFor('p1', 'ab'.repeat(32))).toBe('200c2c24-1efd-5155-96dc-9358b0356776');
    expect(topicIdFor('p1', 'news é😀')).toBe('d397044f-0cda-5d6b-b6b5-9c5b2e8dd2c7');
  });

  it('equal uuid v5 of the name as a string, for any well-formed name', () => {
    const pieces = ['a', 'Z', '0', ':', ' ', 'é', 'ß', '€', '中', '😀', '\u0000', '\uffff'];
    for (let n = 0; n < 2_000; n += 1) {
      const token = Array.from({ length: (n * 7) % 180 }, (_, i) => pieces[(n * 31 + i * 17) % pieces.length]).join('');
      expect(deviceIdFor(`project-${n % 5}`, token)).toBe(uuidV5(`device\u0000project-${n % 5}\u0000${token}`, NAMESPACE));
      expect(topicIdFor('p', token)).toBe(uuidV5(`topic\u0000p\u0000${token}`, NAMESPACE));
    }
  });

  it('derive an id for a name with a lone surrogate without throwing, distinct from every other name', () => {
    const ids = ['ab\ud800', 'ab\udc00', 'ab\ufffd', 'ab', '\ud800ab', 'ab\ud800\ud800'].map((token) => deviceIdFor('p', token));
    expect(new Set(ids).size).toBe(ids.length);
    expect(deviceIdFor('p', 'ab\ud800')).toBe(deviceIdFor('p', 'ab\ud800'));
    expect(topicIdFor('p', 'a\ud800')).not.toBe(deviceIdFor('p', 'a\ud800'));
  });
});

describe('retryBatchId', () => {
  it('marks the fan-out part and keeps the provider, partition and sequence readable', () => {
    const id = retryBatchId(deliveryBatchId('0199a1c2-0000-7000-8000-000000000000', 'apns', 3, 7));
    expect(id).toBe('0199a1c2-0000-7000-8000-000000000000+retry:apns:3:7');
    expect(parseBatchId(id)).toEqual({ fanoutId: '0199a1c2-0000-7000-8000-000000000000+retry', provider: 'apns', partition: 3, sequence: 7 });
  });
});
