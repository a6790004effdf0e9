import { describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS, type HeraldEvent, type ConsumedEvent } from '@herald/events';
import type { DeviceDocument } from './devices.ts';
import { devicesProjection, evolveDevice, previewDevice } from './devices.ts';

const project_id = 'project-1';
const device_id = deviceIdFor(project_id, 'tok-1');
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));

describe('evolveDevice, web devices', () => {
  const subscription = { endpoint: 'https://push.example/sub/1', p256dh: 'BKey', auth: 'c2VjcmV0', key_id: 'vapid-1', expiration_time: null };

  it('keeps the subscription a web registration brings, and the last one when a registration brings none', () => {
    const device = project(consumed([registered(1, { platform: 'web', token: subscription.endpoint, subscription })]));
    expect(device).toMatchObject({ platform: 'web', token: subscription.endpoint, subscription });
    const renewed = { ...subscription, p256dh: 'BOther', key_id: 'vapid-2' };
    expect(project(consumed([registered(1, { platform: 'web', subscription }), registered(2, { platform: 'web', subscription: renewed })]))?.subscription).toEqual(renewed);
    expect(project(consumed([registered(1, { platform: 'web', subscription }), registered(2, { platform: 'web' })]))?.subscription).toEqual(subscription);
  });

  it('a device registered again on another platform has no subscription', () => {
    const device = project(consumed([registered(1, { platform: 'web', subscription }), registered(2, { platform: 'ios' })]));
    expect(device?.subscription).toBeUndefined();
  });
});

function consumed(events: HeraldEvent[]): ConsumedEvent[] {
  return events.map((event, offset) => ({ event, topic: TOPICS.deviceEvents, partition: 0, offset }));
}

/** Folds the records, then folds them all again: a replay must change nothing (emmett-style spec). */
function project(records: ConsumedEvent[]): DeviceDocument | undefined {
  const once = records.reduce<DeviceDocument | undefined>(evolveDevice, undefined);
  const twice = records.reduce<DeviceDocument | undefined>(evolveDevice, once);
  expect(twice).toEqual(once);
  return once;
}

const registered = (second: number, data: Partial<Parameters<typeof createEvent<'DeviceRegistered'>>[1]> = {}) =>
  createEvent('DeviceRegistered', { device_id, token: 'tok-1', platform: 'ios', ...data }, { project_id, now: at(second) });

describe('evolveDevice', () => {
  it('creates an active device on registration', () => {
    const device = project(consumed([registered(1, { metadata: { plan: 'free' }, identifiers: { user_id: 'u1' }, topic_ids: ['t1'] })]));
    expect(device).toMatchObject({
      _id: device_id,
      project_id,
      token: 'tok-1',
      status: 'active',
      metadata: { plan: 'free' },
      identifiers: { user_id: 'u1' },
      topics: ['t1'],
      created_at: at(1).toISOString(),
      position: { partition: 0, offset: 0 },
    });
  });

  it('merges metadata: sets given keys and removes unset ones', () => {
    const device = project(
      consumed([
        registered(1, { metadata: { plan: 'free', city: 'Oslo' } }),
        createEvent('MetadataUpdated', { device_id, set: { plan: 'pro', lang: 'nb' }, unset: ['city'] }, { project_id, now: at(2) }),
      ]),
    );
    expect(device?.metadata).toEqual({ plan: 'pro', lang: 'nb' });
  });

  it('deactivates on an invalid token and reactivates on re-registration, keeping creation time', () => {
    const deactivated = createEvent('DeviceDeactivated', { device_id, provider: 'apns', reason: 'BadDeviceToken' }, { project_id, now: at(2) });
    const inactive = project(consumed([registered(1), deactivated]));
    expect(inactive).toMatchObject({ status: 'inactive', deactivation: { reason: 'BadDeviceToken', provider: 'apns' } });
    const active = project(consumed([registered(1), deactivated, registered(3)]));
    expect(active?.status).toBe('active');
    expect(active?.deactivation).toBeUndefined();
    expect(active?.created_at).toBe(at(1).toISOString());
  });

  it('ignores an APNs 410 whose timestamp predates the last registration', () => {
    const stale = createEvent(
      'DeviceDeactivated',
      { device_id, provider: 'apns', reason: 'Unregistered', provider_timestamp: at(2).toISOString() },
      { project_id, now: at(5) },
    );
    expect(project(consumed([registered(1), registered(3), stale]))?.status).toBe('active');
  });

  it('keeps fields a re-registration leaves out', () => {
    const device = project(consumed([registered(1, { metadata: { plan: 'pro' }, topic_ids: ['t1'] }), registered(2, { token: 'tok-2' })]));
    expect(device).toMatchObject({ token: 'tok-2', metadata: { plan: 'pro' }, topics: ['t1'] });
  });

  it('ignores updates for devices it has never seen, and events of another project', () => {
    expect(project(consumed([createEvent('MetadataUpdated', { device_id, set: { a: 'b' }, unset: [] }, { project_id })]))).toBeUndefined();
    const foreign = createEvent('MetadataUpdated', { device_id, set: { a: 'b' }, unset: [] }, { project_id: 'other' });
    expect(project(consumed([registered(1), foreign]))?.metadata).toEqual({});
  });

  it('keeps external_id and timezone until a registration changes them', () => {
    const device = project(consumed([registered(1, { external_id: 'u-1', timezone: 'Europe/Paris' }), registered(2, { timezone: 'Asia/Tokyo' })]));
    expect(device).toMatchObject({ external_id: 'u-1', timezone: 'Asia/Tokyo' });
  });

  it('is inactive, reason Unregistered, once the project unregisters it; registering the token again reactivates it', () => {
    const unregistered = createEvent('DeviceUnregistered', { device_id }, { project_id, now: at(2) });
    expect(project(consumed([registered(1), unregistered]))).toMatchObject({ status: 'inactive', deactivation: { reason: 'Unregistered', at: at(2).toISOString() } });
    const back = project(consumed([registered(1), unregistered, registered(3)]));
    expect(back?.status).toBe('active');
    expect(back).not.toHaveProperty('deactivation');
  });

  it('forgets the user when the project deletes the device or unlinks it; a comeback from inactive brings no user back without one given', () => {
    const linked = registered(1, { external_id: 'u-1' });
    const unregistered = createEvent('DeviceUnregistered', { device_id }, { project_id, now: at(2) });
    expect(project(consumed([linked, unregistered]))).not.toHaveProperty('external_id');
    expect(project(consumed([linked, unregistered, registered(3)]))).not.toHaveProperty('external_id');
    expect(project(consumed([linked, unregistered, registered(3, { external_id: 'u-2' })]))).toMatchObject({ external_id: 'u-2' });
    const unlinked = createEvent('DeviceUnlinked', { device_id }, { project_id, now: at(2) });
    expect(project(consumed([linked, unlinked]))).toMatchObject({ status: 'active', updated_at: at(2).toISOString() });
    expect(project(consumed([linked, unlinked]))).not.toHaveProperty('external_id');
    // A provider's deactivation, then the token registered again: the device comes back without its user.
    const rejected = createEvent('DeviceDeactivated', { device_id, provider: 'fcm', reason: 'UNREGISTERED' }, { project_id, now: at(2) });
    expect(project(consumed([linked, rejected]))).toMatchObject({ status: 'inactive', external_id: 'u-1' });
    expect(project(consumed([linked, rejected, registered(3)]))).not.toHaveProperty('external_id');
    // While it is active, a registration that leaves external_id out keeps it.
    expect(project(consumed([linked, registered(3)]))).toMatchObject({ external_id: 'u-1' });
  });

  it('marks a device registered without the key anonymous until the key registers it; a keyed device stays the key’s', () => {
    expect(project(consumed([registered(1, { anonymous: true })]))).toMatchObject({ anonymous: true });
    expect(project(consumed([registered(1, { anonymous: true }), registered(2, { anonymous: true })]))).toMatchObject({ anonymous: true });
    expect(project(consumed([registered(1, { anonymous: true }), registered(2)]))).not.toHaveProperty('anonymous');
    expect(project(consumed([registered(1), registered(2, { anonymous: true })]))).not.toHaveProperty('anonymous');
    // Deleted, then registered again without the key: it arrives anew, anonymous.
    const deleted = createEvent('DeviceUnregistered', { device_id }, { project_id, now: at(2) });
    expect(project(consumed([registered(1), deleted, registered(3, { anonymous: true })]))).toMatchObject({ anonymous: true });
  });

  it('keeps the proven identifier values with the identifiers they prove', () => {
    const proven = registered(1, { identifiers: { user: 'alice', team: 't1' }, proven_identifiers: ['alice'] });
    expect(project(consumed([proven]))).toMatchObject({ identifier_values: ['alice', 't1'], proven_identifier_values: ['alice'] });
    expect(project(consumed([proven, registered(2)]))).toMatchObject({ proven_identifier_values: ['alice'] });
    expect(project(consumed([proven, registered(2, { identifiers: { user: 'alice' } })]))).not.toHaveProperty('proven_identifier_values');
  });

  it('previews events not yet in the log the same way (what the API answers)', () => {
    const stored = project(consumed([registered(1, { metadata: { a: '1' } })]))!;
    const preview = previewDevice(stored, [registered(5, { external_id: 'u-9' })]);
    expect(preview).toMatchObject({ metadata: { a: '1' }, external_id: 'u-9', updated_at: at(5).toISOString(), created_at: stored.created_at });
  });
});

describe('DevicePurged', () => {
  const unregistered = (second: number) => createEvent('DeviceUnregistered', { device_id }, { project_id, now: at(second) });
  const purged = (second: number) => createEvent('DevicePurged', { device_id }, { project_id, now: at(second) });

  it('marks a deleted device purged (the apply deletes it), and it leaves the counters', () => {
    const device = project(consumed([registered(1, { topic_ids: ['t1'] }), unregistered(2), purged(3)]));
    expect(device).toMatchObject({ _id: device_id, purged: true, position: { partition: 0, offset: 2 } });
    expect(devicesProjection.removes?.(device!)).toBe(true);
    const before = project(consumed([registered(1, { topic_ids: ['t1'] }), unregistered(2)]));
    expect(devicesProjection.counts?.(before, device!)).toEqual([{ project_id, key: 'devices', by: { ios_inactive: -1 } }]);
  });

  it('leaves an active device as it is: registered again before the purge', () => {
    const device = project(consumed([registered(1), unregistered(2), registered(3), purged(4)]));
    expect(device).toMatchObject({ status: 'active' });
    expect(device?.purged).toBeUndefined();
  });

  it('a purged device registered again starts anew: nothing of before comes back', () => {
    const device = project(consumed([registered(1, { metadata: { plan: 'old' }, identifiers: { email: 'a@x' } }), unregistered(2), purged(3), registered(4)]));
    expect(device).toMatchObject({ status: 'active', metadata: {}, identifiers: {}, created_at: at(4).toISOString() });
    expect(device?.purged).toBeUndefined();
  });
});
