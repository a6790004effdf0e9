import { describe, expect, it } from 'vitest';
import { createEvent, TOPICS } from '@herald/events';
import { foldRecords } from './apply-projection.ts';
import { MEMBERS_PER_PARTITION, topicMembersId, topicMembersProjection, type TopicMembersDocument } from './topic-members.ts';

const registered = (deviceId: string, topicIds: string[] | undefined, partition: number, offset: number) => ({
  event: createEvent('DeviceRegistered', { device_id: deviceId, token: `token-${deviceId}`, platform: 'ios' as const, ...(topicIds === undefined ? {} : { topic_ids: topicIds }) }, { project_id: 'p' }),
  topic: TOPICS.deviceEvents,
  partition,
  offset,
});

const fold = (records: ReturnType<typeof registered>[], start = new Map<string, TopicMembersDocument>()) => foldRecords(topicMembersProjection, records, start);

describe('topic members', () => {
  it('lists each subscribing device once, in the document of its topic and partition', () => {
    const docs = fold([registered('d1', ['news', 'sport'], 0, 0), registered('d2', ['news'], 1, 0), registered('d1', ['news'], 0, 1), registered('d3', undefined, 0, 2)]);
    expect([...docs.keys()].sort()).toEqual([topicMembersId('news', 0), topicMembersId('news', 1), topicMembersId('sport', 0)]);
    expect(docs.get(topicMembersId('news', 0))).toMatchObject({ project_id: 'p', topic_id: 'news', partition: 0, device_ids: ['d1'], overflowed: false });
    expect(docs.get(topicMembersId('news', 1))?.device_ids).toEqual(['d2']);
  });

  it('changes nothing for a record it already reflects', () => {
    const once = fold([registered('d1', ['news'], 0, 5)]);
    expect(fold([registered('d9', ['news'], 0, 5)], once).size).toBe(0);
    expect(fold([registered('d9', ['news'], 0, 6)], once).get(topicMembersId('news', 0))?.device_ids).toEqual(['d1', 'd9']);
  });

  it('drops the list for good once more devices than the limit subscribed through one partition', () => {
    const many = Array.from({ length: MEMBERS_PER_PARTITION + 1 }, (_, n) => registered(`d${n}`, ['big'], 2, n));
    const overflowed = fold(many).get(topicMembersId('big', 2))!;
    expect(overflowed).toMatchObject({ device_ids: [], overflowed: true });
    expect(fold([registered('late', ['big'], 2, MEMBERS_PER_PARTITION + 1)], new Map([[overflowed._id, overflowed]])).size).toBe(0);
  });
});
