import { describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS, type HeraldEvent } from '@herald/events';
import { type DeviceDocument, devicesProjection } from '@herald/read-models';
import { foldRecords } from './apply-projection.ts';

const project_id = 'p';
const a = deviceIdFor(project_id, 'a');
const b = deviceIdFor(project_id, 'b');
const records = (events: HeraldEvent[], from = 0) => events.map((event, index) => ({ event, topic: TOPICS.deviceEvents, partition: 0, offset: from + index }));

describe('foldRecords', () => {
  const events = [
    createEvent('DeviceRegistered', { device_id: a, token: 'a', platform: 'ios' }, { project_id }),
    createEvent('MetadataUpdated', { device_id: a, set: { plan: 'pro' }, unset: [] }, { project_id }),
    createEvent('MetadataUpdated', { device_id: b, set: { plan: 'pro' }, unset: [] }, { project_id }),
  ];

  it('folds each document in order and returns only those it could create or change', () => {
    const changed = foldRecords(devicesProjection, records(events), new Map());
    expect([...changed.keys()]).toEqual([a]);
    expect(changed.get(a)?.metadata).toEqual({ plan: 'pro' });
  });

  it('starts from known states, and only for the ids asked', () => {
    const existingB = { ...foldRecords(devicesProjection, records([createEvent('DeviceRegistered', { device_id: b, token: 'b', platform: 'android' }, { project_id })], 0), new Map()).get(b)! };
    const later = records(events, 10);
    const changed = foldRecords(devicesProjection, later, new Map<string, DeviceDocument>([[b, existingB]]), new Set([b]));
    expect([...changed.keys()]).toEqual([b]);
    expect(changed.get(b)).toMatchObject({ metadata: { plan: 'pro' }, position: { partition: 0, offset: 12 } });
  });

  it('changes nothing when the state already reflects the records', () => {
    const once = foldRecords(devicesProjection, records(events), new Map());
    expect(foldRecords(devicesProjection, records(events), once).size).toBe(0);
  });
});
