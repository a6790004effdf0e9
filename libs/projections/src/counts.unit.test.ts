import { describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS, type HeraldEvent } from '@herald/events';
import { foldWithCounts } from './apply-counted.ts';
import { type CounterDocument, counterId, deviceCountDeltas, deviceCountsOf, type DeviceDocument, DEVICES_COUNT_KEY, devicesProjection, foldCounts, notificationCountDeltas, notificationCountOf, type NotificationDocument, NOTIFICATIONS_COUNT_KEY, type RecordDelta, sumCounts, topicCountKey } from '@herald/read-models';

const project_id = 'p';
const records = (events: HeraldEvent[], partition = 0, from = 0) => events.map((event, index) => ({ event, topic: TOPICS.deviceEvents, partition, offset: from + index }));
const register = (token: string, platform: 'ios' | 'android' | 'web' | 'huawei', topic_ids?: string[]) =>
  createEvent('DeviceRegistered', { device_id: deviceIdFor(project_id, token), token, platform, ...(topic_ids === undefined ? {} : { topic_ids }) }, { project_id });
const deactivate = (token: string) => createEvent('DeviceDeactivated', { device_id: deviceIdFor(project_id, token), reason: 'Unregistered', provider: 'apns' }, { project_id });

/** What a chunk adds to the counters, applied to empty counters, summed over partitions. */
function countsAfter(...chunks: Array<ReturnType<typeof records>>): Map<string, Record<string, number>> {
  let docs = new Map<string, DeviceDocument>();
  let counters = new Map<string, CounterDocument>();
  for (const chunk of chunks) {
    const { changed, deltas } = foldWithCounts(devicesProjection, chunk, docs);
    counters = new Map([...counters, ...foldCounts(counters, deltas)]);
    docs = new Map([...docs, ...changed]);
  }
  return sumCounts([...counters.values()]);
}

describe('device counters', () => {
  it('count devices by platform and status, and active subscribers per topic', () => {
    const counts = countsAfter(records([register('a', 'ios', ['t1', 't2']), register('b', 'android', ['t1']), register('c', 'ios'), register('d', 'web'), register('e', 'huawei', ['t2']), deactivate('a')]));
    expect(deviceCountsOf(counts.get(DEVICES_COUNT_KEY))).toEqual({ ios: { active: 1, inactive: 1 }, android: { active: 1, inactive: 0 }, web: { active: 1, inactive: 0 }, huawei: { active: 1, inactive: 0 } });
    expect(counts.get(topicCountKey('t1'))).toEqual({ active: 1 });
    expect(counts.get(topicCountKey('t2'))).toEqual({ active: 1 });
  });

  it('move a device between topics and back to active when it registers again', () => {
    const counts = countsAfter(records([register('a', 'ios', ['t1']), deactivate('a')]), records([register('a', 'ios', ['t2'])], 0, 2));
    expect(deviceCountsOf(counts.get(DEVICES_COUNT_KEY))).toEqual({ ios: { active: 1, inactive: 0 }, android: { active: 0, inactive: 0 }, web: { active: 0, inactive: 0 }, huawei: { active: 0, inactive: 0 } });
    expect(counts.get(topicCountKey('t1'))).toEqual({ active: 0 });
    expect(counts.get(topicCountKey('t2'))).toEqual({ active: 1 });
  });

  it('keep one counter document per key, project and partition, summed on read', () => {
    const counts = countsAfter(records([register('a', 'ios')], 0), records([register('b', 'ios')], 1), records([register('c', 'android')], 2));
    expect(deviceCountsOf(counts.get(DEVICES_COUNT_KEY))).toEqual({ ios: { active: 2, inactive: 0 }, android: { active: 1, inactive: 0 }, web: { active: 0, inactive: 0 }, huawei: { active: 0, inactive: 0 } });
  });

  it('a device unchanged by an event adds nothing', () => {
    const [device] = [...foldWithCounts(devicesProjection, records([register('a', 'ios', ['t1'])]), new Map<string, DeviceDocument>()).changed.values()];
    if (device === undefined) throw new Error('no device folded');
    expect(deviceCountDeltas(device, { ...device, metadata: { plan: 'pro' } })).toEqual([]);
  });
});

describe('foldCounts', () => {
  const delta = (offset: number, n = 1, partition = 0): RecordDelta => ({ partition, offset, delta: { project_id, key: 'k', by: { x: n } } });

  it('adds what is newer than each counter document, and remembers the last record', () => {
    const first = foldCounts(new Map(), [delta(1), delta(2, 2)]);
    const id = counterId('k', project_id, 0);
    expect(first.get(id)).toEqual({ _id: id, project_id, key: 'k', partition: 0, offset: 2, counts: { x: 3 } });
    // The same chunk again (a crash after the counters were written): nothing more; a longer one adds only its new records.
    expect(foldCounts(first, [delta(1), delta(2, 2)]).size).toBe(0);
    expect(foldCounts(first, [delta(1), delta(2, 2), delta(3, 5)]).get(id)).toMatchObject({ offset: 3, counts: { x: 8 } });
    // The documents read are left as they were: what changed is a copy.
    expect(first.get(id)).toEqual({ _id: id, project_id, key: 'k', partition: 0, offset: 2, counts: { x: 3 } });
  });

  it('keeps partitions apart', () => {
    const changed = foldCounts(new Map(), [delta(1, 1, 0), delta(1, 1, 1)]);
    expect([...changed.keys()].sort()).toEqual([counterId('k', project_id, 0), counterId('k', project_id, 1)]);
  });
});

describe('notification counters', () => {
  const notification = (status: NotificationDocument['status']) => ({ project_id, status }) as NotificationDocument;

  it('move a notification between statuses', () => {
    expect(notificationCountDeltas(undefined, notification('queued'))).toEqual([{ project_id, key: NOTIFICATIONS_COUNT_KEY, by: { queued: 1 } }]);
    expect(notificationCountDeltas(notification('queued'), notification('sent'))).toEqual([{ project_id, key: NOTIFICATIONS_COUNT_KEY, by: { queued: -1, sent: 1 } }]);
    expect(notificationCountDeltas(notification('sent'), notification('sent'))).toEqual([]);
  });

  it('read back in all or by status', () => {
    const counts = { queued: 2, sent: 5 };
    expect(notificationCountOf(counts)).toBe(7);
    expect(notificationCountOf(counts, 'sent')).toBe(5);
    expect(notificationCountOf(counts, 'expired')).toBe(0);
    expect(notificationCountOf(undefined)).toBe(0);
  });
});
