import { describe, expect, it } from 'vitest';
import { deviceIdFor, topicIdFor, type DeviceRegisteredV2 } from '@herald/events';
import type { DeviceDocument } from '@herald/read-models';
import { deviceBytes, planRegistration } from './device-registration.ts';

const now = new Date('2026-01-02T03:04:05.000Z');

describe('planRegistration', () => {
  it('derives the id of a new device from project and token', () => {
    const { device, events } = planRegistration({ project_id: 'p1', token: 'tok', platform: 'ios' }, undefined, { now });
    expect(device.id).toBe(deviceIdFor('p1', 'tok'));
    expect(device).toMatchObject({ status: 'active', metadata: {}, identifiers: {}, topics: [], created_at: now.toISOString() });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'DeviceRegistered', project_id: 'p1', stream_id: device.id });
  });

  it('subscribes to each topic once, and creates (as device-created) only the topics it is told to', () => {
    const { device, events } = planRegistration(
      { project_id: 'p1', token: 'tok', platform: 'android', topics: ['news', 'news', 'sport'] },
      undefined,
      { createTopics: ['sport'], correlationId: 'corr-1', now },
    );
    const topicIds = [topicIdFor('p1', 'news'), topicIdFor('p1', 'sport')];
    expect(events.map((event) => event.type)).toEqual(['TopicCreated', 'DeviceRegistered']);
    expect(events[0]).toMatchObject({ data: { topic_id: topicIds[1], name: 'sport', origin: 'device' } });
    expect(device.topics).toEqual(topicIds);
    expect((events[1] as DeviceRegisteredV2).data.topic_ids).toEqual(topicIds);
    expect(events.every((event) => event.correlation_id === 'corr-1')).toBe(true);
  });

  it('unlinks a linked device on external_id null, and answers it without a user', () => {
    const linked = { ...existingDevice, status: 'active' as const, external_id: 'u-1' };
    const { device, events } = planRegistration({ project_id: 'p1', token: 'old', platform: 'ios', external_id: null }, linked, { now });
    expect(events.map((event) => event.type)).toEqual(['DeviceUnlinked', 'DeviceRegistered']);
    expect(device.external_id).toBeNull();
    // Nothing to unlink: no event for it.
    expect(planRegistration({ project_id: 'p1', token: 'old', platform: 'ios', external_id: null }, existingDevice, { now }).events.map((event) => event.type)).toEqual(['DeviceRegistered']);
  });

  it('answers a device back from inactive without its old user unless the registration names one', () => {
    const inactive = { ...existingDevice, external_id: 'u-1' };
    expect(planRegistration({ project_id: 'p1', token: 'old', platform: 'ios' }, inactive, { now }).device).toMatchObject({ status: 'active', external_id: null });
    expect(planRegistration({ project_id: 'p1', token: 'old', platform: 'ios', external_id: 'u-1' }, inactive, { now }).device.external_id).toBe('u-1');
  });

  it('files a refreshed token under its own id too (TokenAssigned), so the delivery index of that partition finds its holder', () => {
    const holder = { ...existingDevice, _id: deviceIdFor('p1', 'old'), token: 'old', status: 'active' as const };
    const { events } = planRegistration({ project_id: 'p1', device_id: holder._id, token: 'new', previous_token: 'old', platform: 'ios' }, holder, { now });
    expect(events.map((event) => event.type)).toEqual(['DeviceRegistered', 'TokenAssigned']);
    expect(events[1]).toMatchObject({ stream_id: deviceIdFor('p1', 'new'), data: { token_device_id: deviceIdFor('p1', 'new'), device_id: holder._id, token: 'new' } });
    // Its own first token again: nothing to file elsewhere.
    expect(planRegistration({ project_id: 'p1', token: 'old', platform: 'ios' }, holder, { now }).events.map((event) => event.type)).toEqual(['DeviceRegistered']);
  });

  it('counts the bytes a device holds', () => {
    const { device } = planRegistration({ project_id: 'p1', token: 'tok', platform: 'ios', metadata: { a: 'é' } }, undefined, { now });
    expect(deviceBytes(device)).toBe(Buffer.byteLength(JSON.stringify({ token: 'tok', identifiers: {}, metadata: { a: 'é' }, topics: [], external_id: null, timezone: null })));
  });

  it('creates several topics in one registration', () => {
    const { device, events } = planRegistration(
      { project_id: 'p1', token: 'tok', platform: 'android', topics: ['news', 'news', 'sport'] },
      undefined,
      { createTopics: ['news', 'sport'], correlationId: 'corr-1', now },
    );
    const topicIds = [topicIdFor('p1', 'news'), topicIdFor('p1', 'sport')];
    expect(events.map((event) => event.type)).toEqual(['TopicCreated', 'TopicCreated', 'DeviceRegistered']);
    expect(device.topics).toEqual(topicIds);
    expect((events[2] as DeviceRegisteredV2).data.topic_ids).toEqual(topicIds);
    expect(events.every((event) => event.correlation_id === 'corr-1')).toBe(true);
  });

  it('keeps the existing id and unspecified fields on a token refresh', () => {
    const existing = existingDevice;
    const { device, events } = planRegistration({ project_id: 'p1', token: 'new', platform: 'ios' }, existing, { now });
    expect(device).toMatchObject({ id: existing._id, token: 'new', status: 'active', metadata: { plan: 'pro' }, topics: ['t1'], created_at: existing.created_at });
    expect((events[0] as DeviceRegisteredV2).data).toEqual({ device_id: existing._id, token: 'new', platform: 'ios' });
  });
});

const existingDevice = {
  _id: deviceIdFor('p1', 'old'),
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
