import { describe, expect, it } from 'vitest';
import { Compile } from 'typebox/compile';
import { encodeEvent, type HeraldEvent } from '@herald/events';
import { RegisterDeviceBody } from '../schemas/devices.ts';
import { MetadataPatch } from '../schemas/common.ts';
import { DEVICE_LIMITS } from './device-limits.ts';
import { planRegistration } from './device-registration.ts';
import { planMetadataUpdate } from './metadata-update.ts';

/**
 * The largest record one anonymous request can make Herald produce, built
 * from inputs the route schemas accept, must fit Kafka's default
 * `message.max.bytes` (1,048,588 bytes, a record batch of one record
 * included). The worst character for JSON is a control character, escaped
 * as `\u0001` (6 bytes); keys may not hold control characters, and a lone
 * surrogate (also escaped to 6 bytes) is the worst they can hold.
 */
const BROKER_MESSAGE_MAX_BYTES = 1_048_588;
/** Record batch header (61 bytes) plus one record's framing, generously. */
const BATCH_OVERHEAD = 512;

const worstValue = '\u0001'.repeat(DEVICE_LIMITS.valueLength);
/** Distinct keys of lone high surrogates (no two form a pair). */
const worstKey = (index: number) => '\ud800'.repeat(DEVICE_LIMITS.keyLength - 1) + String.fromCharCode(0xd800 + index);
const worstMap = () => Object.fromEntries(Array.from({ length: DEVICE_LIMITS.mapEntries }, (_, index) => [worstKey(index), worstValue]));

function recordBytes(event: HeraldEvent): number {
  const record = encodeEvent(event);
  const headers = Object.entries(record.headers).reduce((sum, [key, value]) => sum + Buffer.byteLength(key) + Buffer.byteLength(value), 0);
  return Buffer.byteLength(record.value) + Buffer.byteLength(record.key) + headers;
}

const projectId = '0193a0c2-7b7e-7d3a-9a4e-5f1c2b3d4e5f';
const now = new Date('2026-11-22T21:00:00.000Z');

describe('worst-case event size under the device-facing limits', () => {
  it('a registration’s largest record (DeviceRegistered) stays below the broker’s message limit', () => {
    const input = {
      project_id: projectId,
      token: '\u0001'.repeat(4096),
      platform: 'ios' as const,
      device_id: 'd'.repeat(64),
      identifiers: worstMap(),
      metadata: worstMap(),
      topics: Array.from({ length: DEVICE_LIMITS.topicsPerRegistration }, (_, index) => `${index}`.padEnd(256, '\u0001')),
    };
    expect(Compile(RegisterDeviceBody).Check(input)).toBe(true);
    const { events } = planRegistration(input, undefined, { createTopics: input.topics, correlationId: 'r'.repeat(64), now });
    const largest = Math.max(...events.map(recordBytes));
    // Measured: 862,260 bytes (identifiers and metadata ~418 KB each, token 24,576); each TopicCreated ~2 KB.
    expect(largest).toBeGreaterThan(800_000);
    expect(largest + BATCH_OVERHEAD).toBeLessThan(BROKER_MESSAGE_MAX_BYTES);
  });

  it('a metadata PATCH’s record (MetadataUpdated) stays below it, and the worst patch may reach only 2 devices', () => {
    const patch = worstMap();
    expect(Compile(MetadataPatch).Check(patch)).toBe(true);
    const devices = (count: number) => Array.from({ length: count }, (_, index) => ({ _id: `device-${index}`, project_id: projectId, metadata: {} }));
    const plan = planMetadataUpdate(devices(2), patch, 'r'.repeat(64), now);
    if (plan.kind !== 'update') throw new Error(`expected an update, got ${plan.kind}`);
    const sizes = plan.events.map(recordBytes);
    // Measured: 418,593 bytes each. Without the write budget, 100 devices made 41,859,270 bytes from one request.
    expect(Math.max(...sizes)).toBeGreaterThan(400_000);
    expect(Math.max(...sizes) + BATCH_OVERHEAD).toBeLessThan(BROKER_MESSAGE_MAX_BYTES);
    expect(planMetadataUpdate(devices(3), patch, undefined, now).kind).toBe('refused');
  });
});
