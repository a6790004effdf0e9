import { describe, expect, it } from 'vitest';
import { EventDecodeError } from '@herald/errors';
import { CATALOG, latestEntry } from './catalog.ts';
import { decodeEvent, encodeEvent } from './codec.ts';
import { createEvent } from './create-event.ts';
import { deviceIdFor, deliveryBatchId, parseBatchId, topicIdFor } from './identity.ts';
import { TOPICS } from './topics.ts';

const device_id = deviceIdFor('project-1', 'token-1');

describe('encodeEvent / decodeEvent', () => {
  it('round-trips an event with key and filterable headers', () => {
    const event = createEvent('MetadataUpdated', { device_id, set: { plan: 'pro' }, unset: ['old'] }, { project_id: 'project-1', correlation_id: 'req-1' });
    const record = encodeEvent(event);
    expect(record.key).toBe(device_id);
    expect(record.headers).toEqual({ type: 'MetadataUpdated', version: '2', project_id: 'project-1' });
    expect(decodeEvent(Buffer.from(record.value))).toEqual(event);
  });

  it.each(['DeviceRegistered', 'MetadataUpdated', 'NotificationRequested', 'DeliveryReported', 'NotificationOpened'])('reads a stored %s v1 as its latest version, data unchanged', (type) => {
    const sample = {
      DeviceRegistered: { device_id, token: 't', platform: 'ios' },
      MetadataUpdated: { device_id, set: { plan: 'pro' }, unset: [] },
      NotificationRequested: { notification_id: 'n', title: 't', body: 'b', targets: ['news'] },
      DeliveryReported: { notification_id: 'n', batch_id: 'b', provider: 'apns', results: [{ device_id, outcome: 'delivered' }] },
      NotificationOpened: { notification_id: 'n', device_id },
    }[type];
    const stored = { id: '0190b3c0-0000-7000-8000-000000000000', type, version: 1, occurred_at: '2026-12-07T10:00:00.000Z', project_id: 'p', stream_id: 's', data: sample };
    const decoded = decodeEvent(JSON.stringify(stored));
    expect(decoded.version).toBe(latestEntry(decoded.type).version);
    expect(decoded.version).toBeGreaterThan(1);
    expect(decoded.data).toEqual(sample);
  });

  it('refuses to encode an invalid event', () => {
    const event = createEvent('DeviceRegistered', { device_id, token: 't', platform: 'ios' }, { project_id: 'p' });
    (event.data as { platform: string }).platform = 'windows';
    expect(() => encodeEvent(event)).toThrow(EventDecodeError);
  });

  it.each([
    ['an empty value', null],
    ['a non-JSON value', 'not json {'],
    ['a JSON value that is no envelope', '{"hello": "world"}'],
    ['an unknown event type', JSON.stringify({ id: 'x', type: 'Nope', version: 1, occurred_at: 'x', project_id: 'p', stream_id: 's', data: {} })],
    ['an unknown version', JSON.stringify({ id: 'x', type: 'DeviceRegistered', version: 99, occurred_at: 'x', project_id: 'p', stream_id: 's', data: {} })],
    ['data that breaks the schema', JSON.stringify({ ...createEvent('TopicCreated', { topic_id: 't', name: 'n' }, { project_id: 'p' }), data: { topic_id: 5 } })],
  ])('raises EventDecodeError for %s', (_label, value) => {
    expect(() => decodeEvent(value)).toThrow(EventDecodeError);
  });
});

describe('catalog', () => {
  it('routes every event to a topic and keys it by its stream', () => {
    expect(latestEntry('DeviceRegistered').topic).toBe(TOPICS.deviceEvents);
    expect(latestEntry('NotificationOpened').topic).toBe(TOPICS.notificationEvents);
    expect(new Set(CATALOG.map((entry) => entry.id)).size).toBe(CATALOG.length);
  });

  it('takes the stream id from the data', () => {
    const event = createEvent('TopicCreated', { topic_id: 'topic-9', name: 'news' }, { project_id: 'p' });
    expect(event.stream_id).toBe('topic-9');
  });
});

describe('identity', () => {
  it('derives the same device id for the same project and token, and differs otherwise', () => {
    expect(deviceIdFor('p', 't')).toBe(deviceIdFor('p', 't'));
    expect(deviceIdFor('p', 't')).not.toBe(deviceIdFor('q', 't'));
    expect(deviceIdFor('p', 't')).not.toBe(topicIdFor('p', 't'));
  });

  it('names delivery batches deterministically and reads both id formats back', () => {
    expect(deliveryBatchId('n1', 'apns', 2, 3)).toBe('n1:apns:2:3');
    expect(parseBatchId(deliveryBatchId('n1@4', 'fcm', 5, 12))).toEqual({ fanoutId: 'n1@4', provider: 'fcm', partition: 5, sequence: 12 });
    expect(parseBatchId('n1:apns:7')).toEqual({ fanoutId: 'n1', provider: 'apns', sequence: 7 });
    for (const odd of ['legacy', 'n1:sms:1', 'n1:apns:x', 'n1:apns:1:2:3', ':apns:1']) expect(parseBatchId(odd)).toBeUndefined();
  });
});
