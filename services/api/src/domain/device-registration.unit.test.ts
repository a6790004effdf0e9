import { describe, expect, it } from 'vitest';
import { deviceIdFor, topicIdFor, type DeviceRegisteredV1 } from '@herald/events';
import type { DeviceDocument } from '@herald/projections';
import { planRegistration } from './device-registration.ts';

const now = new Date('2026-01-02T03:04:05.000Z');

describe('planRegistration', () => {
  it('derives the id of a new device from project and token', () => {
    const { device, events } = planRegistration({ project_id: 'p1', token: 'tok', platform: 'ios' }, undefined, undefined, now);
    expect(device.id).toBe(deviceIdFor('p1', 'tok'));
    expect(device).toMatchObject({ status: 'active', metadata: {}, identifiers: {}, topics: [], created_at: now.toISOString() });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'DeviceRegistered', project_id: 'p1', stream_id: device.id });
  });

  it('creates each subscribed topic once and records topic ids', () => {
    const { device, events } = planRegistration(
      { project_id: 'p1', token: 'tok', platform: 'android', topics: ['news', 'news', 'sport'] },
      undefined,
      'corr-1',
      now,
    );
    const topicIds = [topicIdFor('p1', 'news'), topicIdFor('p1', 'sport')];
    expect(events.map((event) => event.type)).toEqual(['TopicCreated', 'TopicCreated', 'DeviceRegistered']);
    expect(device.topics).toEqual(topicIds);
    expect((events[2] as DeviceRegisteredV1).data.topic_ids).toEqual(topicIds);
    expect(events.every((event) => event.correlation_id === 'corr-1')).toBe(true);
  });

  it('keeps the existing id and unspecified fields on a token refresh', () => {
    const existing = {
      _id: 'device-1',
      project_id: 'p1',
      token: 'old',
      platform: 'ios',
      status: 'inactive',
      metadata: { plan: 'pro' },
      identifiers: { user_id: 'u1' },
      identifier_values: ['u1'],
      topics: ['t1'],
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
      registered_at: '2025-01-01T00:00:00.000Z',
      position: { partition: 0, offset: 3 },
    } satisfies DeviceDocument;
    const { device, events } = planRegistration({ project_id: 'p1', token: 'new', platform: 'ios' }, existing, undefined, now);
    expect(device).toMatchObject({ id: 'device-1', token: 'new', status: 'active', metadata: { plan: 'pro' }, topics: ['t1'], created_at: existing.created_at });
    expect((events[0] as DeviceRegisteredV1).data).toEqual({ device_id: 'device-1', token: 'new', platform: 'ios' });
  });
});
