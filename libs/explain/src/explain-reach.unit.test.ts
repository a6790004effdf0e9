import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS, type EventData, type EventType, type FanoutTaskV2, type NotificationRequestedV2, type ResolvedAudience } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import { explainReach, reasonSaid, type ReachFacts } from './explain-reach.ts';
import { deviceTimeline } from './device-timeline.ts';

const P = 'p1';
const D = 'd1';
let clock = Date.parse('2026-11-24T10:00:00Z');
const at = () => new Date((clock += 1000));
function record<T extends EventType>(topic: string, offset: number, type: T, data: EventData<T>): ConsumedEvent {
  return { event: createEvent(type, data, { project_id: P, now: at() }), topic, partition: 0, offset };
}
const device = (offset: number, type: 'DeviceRegistered' | 'MetadataUpdated' | 'DeviceDeactivated' | 'DeviceUnregistered' | 'DeviceUnlinked', data: object) =>
  record(TOPICS.deviceEvents, offset, type, { device_id: D, ...data });
const none: ResolvedAudience = { topic_ids: [], device_ids: [], tokens: [], external_ids: [], metadata: [] };
const request = record(TOPICS.notificationEvents, 0, 'NotificationRequested', { notification_id: 'n1', title: 't', body: 'b', targets: [{ topic: 'news' }] }).event as NotificationRequestedV2;
function task(waitFor: number, audience: ResolvedAudience): FanoutTaskV2 {
  return createEvent(
    'FanoutTask',
    { notification_id: 'n1', fanout_id: 'n1', partition: 0, partitions: 1, step: 0, requested_at: request.occurred_at, wait_for: waitFor, audience, sequence: { apns: 0, fcm: 0 }, targeted: { apns: 0, fcm: 0 } },
    { project_id: P },
  );
}
const registered = device(0, 'DeviceRegistered', { token: 'tok', platform: 'ios', topic_ids: ['news-id'], metadata: { plan: 'free' } });
const facts = (more: Partial<ReachFacts>): ReachFacts => ({ projectId: P, deviceId: D, partition: 0, request, notificationRecords: [], tasks: [task(5, { ...none, topic_ids: ['news-id'] })], deviceRecords: [registered], ...more });

describe('explainReach', () => {
  it('reached: the receipt', () => {
    const reported = record(TOPICS.notificationEvents, 3, 'DeliveryReported', { notification_id: 'n1', batch_id: 'b', provider: 'apns', results: [{ device_id: D, outcome: 'delivered' }] });
    expect(explainReach(facts({ notificationRecords: [reported] }))).toMatchObject({
      reached: true,
      reason: 'reached',
      receipts: [{ outcome: 'delivered' }],
      clauses: [{ clause: 'topic', matched: true }],
      audience_position: { partition: 0, offset: 5 },
    });
  });

  it('the token refused by the provider: not reached, with the receipt', () => {
    const reported = record(TOPICS.notificationEvents, 3, 'DeliveryReported', { notification_id: 'n1', batch_id: 'b', provider: 'apns', results: [{ device_id: D, outcome: 'invalid', reason: 'BadDeviceToken' }] });
    expect(explainReach(facts({ notificationRecords: [reported] }))).toMatchObject({ reached: false, reason: 'provider_rejected', summary: expect.stringContaining('BadDeviceToken') });
  });

  it("expired: its batch was still unsent when the campaign's max_duration ran out", () => {
    const reported = record(TOPICS.notificationEvents, 3, 'DeliveryReported', { notification_id: 'n1', batch_id: 'b', provider: 'fcm', results: [{ device_id: D, outcome: 'expired', reason: 'MaxDurationExceeded' }] });
    expect(explainReach(facts({ notificationRecords: [reported] }))).toMatchObject({ reached: false, reason: 'expired', summary: expect.stringContaining('max_duration') });
  });

  it('capped or deferred by the project: the rule, and a deferred one replaced by its release', () => {
    const rule = 'cap 1/3600s per user';
    const capped = record(TOPICS.notificationEvents, 3, 'DeliveryReported', { notification_id: 'n1', batch_id: 'b', provider: 'fcm', results: [{ device_id: D, outcome: 'capped', reason: 'FrequencyCap', rule }] });
    expect(explainReach(facts({ notificationRecords: [capped] }))).toMatchObject({ reached: false, reason: 'capped', summary: expect.stringContaining(rule) });
    const until = '2026-01-11T07:00:00.000Z';
    const deferred = record(TOPICS.notificationEvents, 3, 'DeliveryReported', { notification_id: 'n1', batch_id: 'b', provider: 'fcm', results: [{ device_id: D, outcome: 'deferred', reason: 'QuietHours', rule: 'quiet 22:00-08:00 Europe/Paris', until }] });
    expect(explainReach(facts({ notificationRecords: [deferred] }))).toMatchObject({ reached: false, reason: 'deferred', summary: expect.stringContaining(until) });
    const released = record(TOPICS.notificationEvents, 4, 'DeliveryReported', { notification_id: 'n1', batch_id: 'b', provider: 'fcm', settles_deferral: true, results: [{ device_id: D, outcome: 'delivered', attempts: 1 }] });
    expect(explainReach(facts({ notificationRecords: [deferred, released] }))).toMatchObject({ reached: true, reason: 'reached' });
  });

  it('not matched: which metadata pair failed, judged at the audience position', () => {
    const answer = explainReach(facts({ tasks: [task(5, { ...none, metadata: [{ plan: 'pro' }] })] }));
    expect(answer.reason).toBe('not_matched');
    expect(answer.summary).toContain('key "plan" is "free", not "pro"');
    expect(answer.audience_position).toEqual({ partition: 0, offset: 5 });
  });

  it('inactive since the provider said so, with its evidence; events after the position do not count', () => {
    const deactivated = device(1, 'DeviceDeactivated', { provider: 'apns', reason: 'BadDeviceToken', notification_id: 'n0' });
    const answer = explainReach(facts({ deviceRecords: [registered, deactivated, device(7, 'DeviceRegistered', { token: 'tok', platform: 'ios' })] }));
    expect(answer).toMatchObject({ reason: 'inactive', inactive_since: deactivated.event.occurred_at, evidence: { provider: 'apns', reason: 'BadDeviceToken', notification_id: 'n0' } });
  });

  it('unregistered by the project', () => {
    expect(explainReach(facts({ deviceRecords: [registered, device(2, 'DeviceUnregistered', {})] })).reason).toBe('unregistered');
  });

  it('registered after the send: its first registration is at or past wait_for', () => {
    const late = device(9, 'DeviceRegistered', { token: 'tok', platform: 'ios', topic_ids: ['news-id'] });
    expect(explainReach(facts({ deviceRecords: [late] }))).toMatchObject({ reason: 'registered_after_send', registered_at: { offset: 9 }, device_at_send: null });
  });

  it('cancelled and expired come from the notification events', () => {
    const cancelled = record(TOPICS.notificationEvents, 1, 'NotificationCancelled', { notification_id: 'n1' });
    const expired = record(TOPICS.notificationEvents, 1, 'NotificationExpired', { notification_id: 'n1', reason: 'ttl passed' });
    expect(explainReach(facts({ notificationRecords: [cancelled], tasks: [] })).reason).toBe('cancelled');
    expect(explainReach(facts({ notificationRecords: [expired], tasks: [] })).summary).toContain('ttl passed');
  });

  it('no task on the partition: not fanned out yet, or named no device here', () => {
    expect(explainReach(facts({ tasks: [] })).reason).toBe('not_dispatched_yet');
    const dispatched = record(TOPICS.notificationEvents, 2, 'NotificationDispatched', { notification_id: 'n1', targeted: { apns: 0, fcm: 0 }, batches: { apns: 0, fcm: 0 } });
    expect(explainReach(facts({ tasks: [], notificationRecords: [dispatched] })).reason).toBe('audience_unknown');
    const byId = { ...request, data: { ...request.data, targets: [{ device_id: 'elsewhere' }] } };
    const answer = explainReach(facts({ request: byId, tasks: [], notificationRecords: [dispatched] }));
    expect(answer).toMatchObject({ reason: 'not_matched', clauses: [{ clause: 'device_id', matched: false }] });
  });
});

describe('deviceTimeline', () => {
  it('tells registrations, refreshes, metadata, deactivations, reactivations, receipts and opens apart, in time order', () => {
    const records = [
      registered,
      device(1, 'DeviceRegistered', { token: 'tok2', platform: 'ios' }),
      device(2, 'MetadataUpdated', { set: { plan: 'pro' }, unset: ['x'] }),
      device(3, 'DeviceDeactivated', { provider: 'fcm', reason: 'UNREGISTERED' }),
      device(4, 'DeviceRegistered', { token: 'tok2', platform: 'ios' }),
      device(5, 'DeviceUnregistered', {}),
    ];
    const reported = record(TOPICS.notificationEvents, 3, 'DeliveryReported', { notification_id: 'n1', batch_id: 'b', provider: 'fcm', results: [{ device_id: D, outcome: 'failed', reason: 'Unavailable' }, { device_id: 'other', outcome: 'delivered' }] });
    const opened = record(TOPICS.notificationEvents, 4, 'NotificationOpened', { notification_id: 'n1', device_id: D });
    const kinds = deviceTimeline(records, [reported, opened], D).map((entry) => entry.kind);
    expect(kinds).toEqual(['registered', 'token_refreshed', 'metadata_changed', 'deactivated', 'reactivated', 'unregistered', 'receipt', 'opened']);
  });
});

describe('reasonSaid', () => {
  it('says what a web device lacks when the reason names it, and the bare reason otherwise', () => {
    expect(reasonSaid('NoWebPushKeys')).toContain('herald providers webpush <project-id> --generate');
    expect(reasonSaid('SubscriptionGone')).toContain('subscribe again');
    expect(reasonSaid('NoHmsCredentials')).toContain('herald providers hms <project-id>');
    expect(reasonSaid('BadDeviceToken')).toBe(' (BadDeviceToken)');
    expect(reasonSaid(null)).toBe('');
  });
});
