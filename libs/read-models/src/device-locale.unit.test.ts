import { describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS, type ConsumedEvent, type HeraldEvent } from '@herald/events';
import { evolveDevice, type DeviceDocument } from './devices.ts';

const project_id = 'project-1';
const device_id = deviceIdFor(project_id, 'tok-1');
const context = { project_id };

function project(events: HeraldEvent[]): DeviceDocument | undefined {
  const records: ConsumedEvent[] = events.map((event, offset) => ({ event, topic: TOPICS.deviceEvents, partition: 0, offset }));
  return records.reduce<DeviceDocument | undefined>((state, record) => evolveDevice(state, record), undefined);
}

describe('a device locale', () => {
  it('is set by a registration, kept by one without it, replaced by the metadata route, and left alone by a metadata change without it', () => {
    const registered = (locale?: string) => createEvent('DeviceRegistered', { device_id, token: 'tok-1', platform: 'ios', ...(locale === undefined ? {} : { locale }) }, context);
    const updated = (locale?: string) => createEvent('MetadataUpdated', { device_id, set: { plan: 'pro' }, unset: [], ...(locale === undefined ? {} : { locale }) }, context);
    expect(project([registered()])?.locale).toBeUndefined();
    expect(project([registered('fr-CA')])?.locale).toBe('fr-CA');
    expect(project([registered('fr-CA'), registered()])?.locale).toBe('fr-CA');
    expect(project([registered('fr-CA'), updated('de')])?.locale).toBe('de');
    expect(project([registered('fr-CA'), updated()])).toMatchObject({ locale: 'fr-CA', metadata: { plan: 'pro' } });
  });
});
