import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEvent, deviceIdFor, TOPICS, type HeraldEvent } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import { AudienceIndex } from './audience-index.ts';

/**
 * Ordinals over a real SQLite index in a temp dir (no Kafka): they must follow
 * the log without gaps whatever happens between chunks, since a fan-out
 * step's position means the same on every instance only if every instance
 * numbers a partition's devices alike.
 */
const project = 'p';
let offset = 0;
const record = (event: HeraldEvent): ConsumedEvent => ({ event, topic: TOPICS.deviceEvents, partition: 0, offset: offset++ });
const registered = (token: string) => record(createEvent('DeviceRegistered', { device_id: deviceIdFor(project, token), token, platform: 'ios' }, { project_id: project }));
/** A record whose reading fails (as a store error would, halfway through a chunk). */
const unreadable = (): ConsumedEvent => ({
  topic: TOPICS.deviceEvents,
  partition: 0,
  offset: offset++,
  get event(): HeraldEvent {
    throw new Error('injected: the record cannot be read');
  },
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ordinalsOf = (index: AudienceIndex, tokens: readonly string[]) => tokens.map((token) => index.ordinalOf(0, deviceIdFor(project, token)));

describe('audience index ordinals', () => {
  it('follow the log across chunks, a chunk that failed halfway and a reopened index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-ordinals-'));
    dirs.push(dir);
    let index = AudienceIndex.open(dir);
    index.applyDevices(0, [registered('a'), registered('b')], offset);
    // 'c' takes an ordinal inside the failed transaction: it is rolled back, and so must its ordinal be.
    expect(() => index.applyDevices(0, [registered('c'), unreadable()], offset)).toThrow('injected');
    expect(index.ordinalOf(0, deviceIdFor(project, 'c'))).toBeUndefined();
    index.applyDevices(0, [registered('c'), registered('a'), registered('d')], offset);
    expect(ordinalsOf(index, ['a', 'b', 'c', 'd'])).toEqual([0, 1, 2, 3]);

    await index.close();
    index = AudienceIndex.open(dir);
    index.applyDevices(0, [registered('e')], offset);
    expect(ordinalsOf(index, ['a', 'b', 'c', 'd', 'e'])).toEqual([0, 1, 2, 3, 4]);
    expect(index.deviceCount(0)).toBe(5);
    await index.close();
  });

  it('checkpoints move only with a committed chunk, in memory as on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-checkpoints-'));
    dirs.push(dir);
    let index = AudienceIndex.open(dir);
    expect(index.next(0)).toBe(0);
    const first = [registered('a'), registered('b')];
    index.applyDevices(0, first, first.at(-1)!.offset + 1);
    const committed = index.next(0);
    expect(committed).toBe(first.at(-1)!.offset + 1);
    expect(() => index.applyDevices(0, [registered('c'), unreadable()], offset)).toThrow('injected');
    expect(index.next(0)).toBe(committed);
    index.applyTopics(1, [], 7);
    expect([index.topicNext(1), index.next(1)]).toEqual([7, 0]);
    await index.close();
    index = AudienceIndex.open(dir);
    expect([index.next(0), index.topicNext(1)]).toEqual([committed, 7]);
    expect(index.checkpoints()).toEqual({ '0': committed });
    await index.close();
  });

  it('read rows together as they read one by one, close together or scattered, missing ones undefined', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-rows-at-'));
    dirs.push(dir);
    const index = AudienceIndex.open(dir);
    index.applyDevices(0, ['a', 'b', 'c', 'd', 'e', 'f'].map(registered), offset);
    const one = (ordinal: number) => index.row(0, ordinal);
    expect(index.rowsAt(0, [0, 1, 2, 3, 4, 5])).toEqual([0, 1, 2, 3, 4, 5].map(one));
    expect(index.rowsAt(0, [1, 3, 4])).toEqual([1, 3, 4].map(one));
    expect(index.rowsAt(0, [0, 5])).toEqual([one(0), one(5)]);
    expect(index.rowsAt(0, [4, 5, 6, 7])).toEqual([one(4), one(5), undefined, undefined]);
    expect(index.rowsAt(0, [2, 40])).toEqual([one(2), undefined]);
    expect(index.rowsAt(0, [])).toEqual([]);
    expect(index.rowsAt(0, [0]).map((row) => row?.token)).toEqual(['a']);
    await index.close();
  });

  it('a purged device leaves its row empty, its ordinal held, its id forgotten; its token registered again is a new device', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-purge-'));
    dirs.push(dir);
    const index = AudienceIndex.open(dir);
    const id = deviceIdFor(project, 'gone');
    const context = { project_id: project };
    const withData = record(createEvent('DeviceRegistered', { device_id: id, token: 'gone', platform: 'ios', metadata: { plan: 'old' }, topic_ids: ['t1'] }, context));
    index.applyDevices(0, [registered('kept'), withData], offset);
    // A purge of a device that is active (registered again since its deletion) changes nothing.
    index.applyDevices(0, [record(createEvent('DevicePurged', { device_id: id }, context))], offset);
    expect(index.device(0, id)).toMatchObject({ status: 'active', metadata: { plan: 'old' } });

    index.applyDevices(0, [record(createEvent('DeviceUnregistered', { device_id: id }, context)), record(createEvent('DevicePurged', { device_id: id }, context))], offset);
    expect(index.device(0, id)).toBeUndefined();
    expect(index.row(0, 1)).toMatchObject({ _id: id, token: '', status: 'inactive', topics: [], metadata: {} });
    expect(index.deviceCount(0)).toBe(2);

    index.applyDevices(0, [registered('gone'), registered('next')], offset);
    expect(ordinalsOf(index, ['kept', 'gone', 'next'])).toEqual([0, 2, 3]);
    expect(index.device(0, id)).toMatchObject({ token: 'gone', status: 'active', metadata: {}, topics: [] });
    await index.close();
  });
});
