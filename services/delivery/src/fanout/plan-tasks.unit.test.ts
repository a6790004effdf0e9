import { describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, topicIdFor, type FanoutTaskV2, type NotificationRequestedV2 } from '@herald/events';
import { topicLookupOf } from '@herald/audience';
import { partitionForKey } from '@herald/kafka';
import { planTasks } from './plan-tasks.ts';

const project = 'p1';
const topicOf = topicLookupOf([{ _id: topicIdFor(project, 'news'), project_id: project, name: 'news' }]);
const request = (targets: NotificationRequestedV2['data']['targets']) =>
  createEvent('NotificationRequested', { notification_id: 'n1', title: 'T', body: 'B', targets, badge: 3 }, { project_id: project }).data;
const plan = (targets: NotificationRequestedV2['data']['targets']) =>
  planTasks({ request: request(targets), projectId: project, requestedAt: '2026-11-24T00:00:00.000Z', deviceEnds: [5, 7, 9, 11], topicOf, partitionOf: partitionForKey });
const tasks = (targets: NotificationRequestedV2['data']['targets']) => plan(targets).map((out) => ({ partition: out.partition, data: (out.event as FanoutTaskV2).data }));

describe('planTasks', () => {
  it('gives a topic audience a task on every partition, each waiting for its own recorded end', () => {
    const planned = tasks([{ topic: 'news' }]);
    expect(planned.map((task) => [task.partition, task.data.wait_for])).toEqual([[0, 5], [1, 7], [2, 9], [3, 11]]);
    for (const task of planned) {
      expect(task.data).toMatchObject({ partition: task.partition, partitions: 4, step: 0, audience: { topic_ids: [topicIdFor(project, 'news')] }, message: { title: 'T', body: 'B', badge: 3 } });
      expect(task.data.covers).toBeUndefined();
    }
  });

  it('gives a send to one token a single task, on the partition of the id derived from it', () => {
    const planned = tasks([{ token: 'tok' }]);
    const partition = partitionForKey(deviceIdFor(project, 'tok'), 4);
    expect(planned.map((task) => task.partition)).toEqual([partition]);
    expect(planned[0]!.data).toMatchObject({ partitions: 1, covers: [partition], audience: { tokens: ['tok'], device_ids: [], topic_ids: [] } });
  });

  it('resolves a plain string by its form: a word as the topic only, a token as the device holding it only; a topic the project does not have is no topic', () => {
    expect(tasks(['news'])[0]!.data.audience).toMatchObject({ device_ids: [], tokens: [], topic_ids: [topicIdFor(project, 'news')] });
    const token = 'ab'.repeat(32);
    const planned = tasks([token]);
    expect(planned.map((task) => task.partition)).toEqual([partitionForKey(deviceIdFor(project, token), 4)]);
    expect(planned[0]!.data.audience).toMatchObject({ device_ids: [], tokens: [token], topic_ids: [] });
    expect(plan(['sport']).map((out) => out.event.type)).toEqual(['NotificationDispatched']);
  });

  it('dispatches an audience that can hold nobody at once, with no task', () => {
    const [only, ...rest] = plan([{ topic: 'unknown' }]);
    expect(rest).toEqual([]);
    expect(only!.event).toMatchObject({ type: 'NotificationDispatched', data: { notification_id: 'n1', targeted: { apns: 0, fcm: 0 } } });
  });
});
