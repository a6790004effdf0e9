import { describe, expect, it } from 'vitest';
import type { MetadataUpdatedV2 } from '@herald/events';
import type { DeviceDocument } from '@herald/read-models';
import { planMetadataUpdate } from './metadata-update.ts';

describe('planMetadataUpdate', () => {
  it('emits one event per device with the same set and unset', () => {
    const device = (id: string) =>
      ({
        _id: id,
        project_id: 'p',
        token: `tok-${id}`,
        platform: 'ios',
        status: 'active',
        metadata: { plan: 'free' },
        identifiers: { user_id: 'u1' },
        identifier_values: ['u1'],
        topics: [],
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        registered_at: '2026-01-01T00:00:00.000Z',
        position: { partition: 0, offset: 1 },
      }) as DeviceDocument;
    const plan = planMetadataUpdate([device('a'), device('b')], { plan: 'pro', old: null }, 'req-1', new Date('2026-02-01T00:00:00.000Z'));
    if (plan.kind !== 'update') throw new Error(`expected an update, got ${plan.kind}`);
    const { events, updated } = plan;
    expect(events.map((event) => [event.stream_id, (event as MetadataUpdatedV2).data.set, (event as MetadataUpdatedV2).data.unset])).toEqual([
      ['a', { plan: 'pro' }, ['old']],
      ['b', { plan: 'pro' }, ['old']],
    ]);
    expect(updated).toBe(2);
  });

  it('carries a locale (already canonical) to every device, and none when the request sets none', () => {
    const device = { _id: 'a', project_id: 'p', metadata: {} };
    const plan = planMetadataUpdate([device], {}, undefined, new Date(), 'fr-CA');
    expect(plan.kind === 'update' ? (plan.events[0] as MetadataUpdatedV2).data : undefined).toEqual({ device_id: 'a', set: {}, unset: [], locale: 'fr-CA' });
    const without = planMetadataUpdate([device], { plan: 'pro' }, undefined, new Date());
    expect(without.kind === 'update' ? (without.events[0] as MetadataUpdatedV2).data : undefined).toEqual({ device_id: 'a', set: { plan: 'pro' }, unset: [] });
  });

  it('refuses a merge that would leave a device with more than 64 keys, naming the limit', () => {
    const full = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, 'v']));
    const device = { _id: 'a', project_id: 'p', metadata: full };
    expect(planMetadataUpdate([device], { k0: 'changed' }, undefined, new Date()).kind).toBe('update');
    expect(planMetadataUpdate([device], { k0: null, extra: 'x' }, undefined, new Date()).kind).toBe('update');
    expect(planMetadataUpdate([device], { extra: 'x' }, undefined, new Date())).toEqual({
      kind: 'refused',
      problem: 'metadata would leave a device with 65 keys; a device keeps at most 64',
    });
  });

  it('refuses a write larger than 1 MiB in all (patch size × matching devices)', () => {
    const patch = { k: 'v'.repeat(1000) }; // 1,010 bytes of JSON
    const devices = (count: number) => Array.from({ length: count }, (_, i) => ({ _id: `d${i}`, project_id: 'p', metadata: {} }));
    expect(planMetadataUpdate(devices(100), patch, undefined, new Date()).kind).toBe('update');
    expect(planMetadataUpdate(devices(1), { ...Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, 'x'.repeat(1024)])) }, undefined, new Date()).kind).toBe('update');
    const large = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, 'x'.repeat(1024)]));
    expect(planMetadataUpdate(devices(16), large, undefined, new Date())).toEqual({
      kind: 'refused',
      problem: 'metadata × 16 matching devices would write 1057648 bytes; one request writes at most 1048576',
    });
  });
});
