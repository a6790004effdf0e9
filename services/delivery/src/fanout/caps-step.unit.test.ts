import { describe, expect, it } from 'vitest';
import type { Schedule } from '@herald/mongo';
import { createEvent, deliveryBatchId, type FanoutTaskV1 } from '@herald/events';
import { gatePage, heldBatches, keepsCaps, type CapsDeps } from './caps-step.ts';
import { planStep, type TaskProgress } from './task-step.ts';
import type { Page } from '@herald/audience-index';
import type { CapEntry } from '../control/caps.ts';

const now = Date.parse('2026-01-10T13:30:00Z');
const task = (extra: Partial<FanoutTaskV1['data']> = {}): FanoutTaskV1['data'] => ({
  notification_id: 'n2',
  fanout_id: 'n2',
  partition: 3,
  partitions: 6,
  step: 1,
  requested_at: new Date(now).toISOString(),
  wait_for: 0,
  audience: { topic_ids: ['t'], device_ids: [], tokens: [], external_ids: [], metadata: [] },
  sequence: { apns: 0, fcm: 0 },
  targeted: { apns: 0, fcm: 0 },
  caps: { frequency_cap: { max: 1, window_seconds: 3_600, per: 'user', on_cap: 'defer' }, quiet_hours: { start: '22:00', end: '08:00' } },
  ...extra,
});

function fakes(initial: Record<string, CapEntry[]> = {}) {
  const store = new Map(Object.entries(initial));
  const reads: string[][] = [];
  const held: Schedule[] = [];
  const deps: CapsDeps = {
    state: {
      read: async (_project, keys) => {
        reads.push([...keys]);
        return new Map(keys.flatMap((key) => (store.has(key) ? [[key, store.get(key)!] as const] : [])));
      },
      write: async (_project, changed) => {
        for (const [key, entries] of changed) store.set(key, entries);
      },
    },
    schedules: { holdReleases: async (schedules) => void held.push(...schedules) },
    now: () => now,
  };
  return { deps, store, reads, held };
}

const page: Page = {
  rows: [
    { ordinal: 0, device_id: 'ann-1', token: 'a1', platform: 'ios', external_id: 'ann', timezone: 'UTC' },
    { ordinal: 1, device_id: 'bob-1', token: 'b1', platform: 'ios', external_id: 'bob', timezone: 'UTC' },
    { ordinal: 2, device_id: 'eve-1', token: 'e1', platform: 'android', timezone: 'Asia/Tokyo' },
  ],
  after: 2,
  exhausted: false,
  forwards: [],
};

describe('keepsCaps', () => {
  it('applies to campaign sends only', () => {
    expect(keepsCaps(task(), false)).toBe(true);
    expect(keepsCaps(task(), true)).toBe(false);
    expect(keepsCaps(task({ lane: 'campaign' }), true)).toBe(true);
    expect(keepsCaps(task({ lane: 'transactional' }), false)).toBe(false);
    expect(keepsCaps(task({ forwarded: true }), false)).toBe(false);
    const { caps: _none, ...unset } = task();
    expect(keepsCaps(unset, false)).toBe(false);
  });
});

describe('a gated step', () => {
  it('sends what fits, reports the rest and holds deferred batches for their time under their batch ids', async () => {
    const { deps, store, reads, held } = fakes({ 'u:ann': [{ n: 'n1', at: now - 60_000, d: 'ann-2' }] });
    const gate = await gatePage(deps, task(), 'p', page);
    expect(reads).toEqual([['u:ann', 'u:bob', 'd:eve-1']]);
    // Eve is in Tokyo's night (22:30): deferred to 08:00 there; Ann is over her cap: deferred to when the window allows.
    expect(gate.page.rows.map((row) => row.device_id)).toEqual(['bob-1']);
    expect(gate.held.map((item) => [item.row.device_id, item.decision.kind])).toEqual([
      ['ann-1', 'deferred'],
      ['eve-1', 'deferred'],
    ]);
    expect(store.get('u:bob')).toEqual([{ n: 'n2', at: now, d: 'bob-1' }]);

    const start: TaskProgress = { step: 1, sequence: { apns: 0, fcm: 0 }, targeted: { apns: 0, fcm: 0 } };
    const limits = { maxDevices: 500, maxDeviceBytes: 1_000_000 };
    const plan = planStep(start, gate.page, limits);
    const batchOf = (batch: { provider: 'apns' | 'fcm' | 'webpush' | 'hms'; sequence: number; devices: Array<{ device_id: string; token: string }> }) =>
      createEvent('DeliveryBatch', { batch_id: deliveryBatchId('n2', batch.provider, 3, batch.sequence), notification_id: 'n2', provider: batch.provider, sequence: batch.sequence, message: { title: 't', body: 'b' }, devices: batch.devices }, { project_id: 'p' });
    const { out, next } = await heldBatches(deps, gate.held, plan.next, limits, batchOf, { project_id: 'p' });
    // Every device is targeted; the held ones take the batch numbers after the step's own.
    expect(next.targeted).toEqual({ apns: 2, fcm: 1 });
    expect(next.sequence).toEqual({ apns: 2, fcm: 1 });
    const reports = out.map((item) => item.event.type === 'DeliveryReported' && [item.event.data.batch_id, item.event.data.results.map((result) => [result.device_id, result.outcome, result.rule, result.until])]);
    expect(reports).toEqual([
      ['n2:apns:3:1', [['ann-1', 'deferred', 'cap 1/3600s per user', new Date(now + 3_540_000).toISOString()]]],
      ['n2:fcm:3:0', [['eve-1', 'deferred', 'quiet 22:00-08:00 Asia/Tokyo', '2026-01-10T23:00:00.000Z']]],
    ]);
    expect(held.map((schedule) => [schedule._id, schedule.due_at.toISOString(), schedule.release?.topic, schedule.release?.batch.deferral?.rule, schedule.release?.batch.devices])).toEqual([
      ['n2:apns:3:1', new Date(now + 3_540_000).toISOString(), 'herald.deliveries.apns', 'cap 1/3600s per user', [{ device_id: 'ann-1', token: 'a1' }]],
      ['n2:fcm:3:0', '2026-01-10T23:00:00.000Z', 'herald.deliveries.fcm', 'quiet 22:00-08:00 Asia/Tokyo', [{ device_id: 'eve-1', token: 'e1' }]],
    ]);
  });

  it('reports what could leave only after max_duration expired, and a drop cap capped, without holding anything', async () => {
    const { deps, held } = fakes({ 'u:ann': [{ n: 'n1', at: now - 60_000, d: 'ann-2' }] });
    const deadline = new Date(now + 60_000).toISOString();
    const gate = await gatePage(deps, task({ deadline, caps: { frequency_cap: { max: 1, window_seconds: 3_600, per: 'user', on_cap: 'drop' }, quiet_hours: { start: '22:00', end: '08:00' } } }), 'p', page);
    expect(gate.held.map((item) => [item.row.device_id, item.decision])).toEqual([
      ['ann-1', { kind: 'capped', rule: 'cap 1/3600s per user' }],
      ['eve-1', { kind: 'expired', rule: 'quiet 22:00-08:00 Asia/Tokyo' }],
    ]);
    const batchOf = (batch: { provider: 'apns' | 'fcm' | 'webpush' | 'hms'; sequence: number; devices: Array<{ device_id: string; token: string }> }) =>
      createEvent('DeliveryBatch', { batch_id: deliveryBatchId('n2', batch.provider, 3, batch.sequence), notification_id: 'n2', provider: batch.provider, sequence: batch.sequence, message: { title: 't', body: 'b' }, devices: batch.devices }, { project_id: 'p' });
    const { out } = await heldBatches(deps, gate.held, { step: 1, sequence: { apns: 0, fcm: 0 }, targeted: { apns: 0, fcm: 0 } }, { maxDevices: 500, maxDeviceBytes: 1_000_000 }, batchOf, { project_id: 'p' });
    expect(out.map((item) => item.event.type === 'DeliveryReported' && item.event.data.results.map((result) => [result.outcome, result.reason]))).toEqual([[['capped', 'FrequencyCap']], [['expired', 'MaxDurationExceeded']]]);
    expect(held).toEqual([]);
  });
});
