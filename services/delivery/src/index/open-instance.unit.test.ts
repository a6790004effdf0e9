import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterEach, describe, expect, it } from 'vitest';
import { AudienceIndex } from '@herald/audience-index';
import { indexFitsLog, openInstance } from './open-instance.ts';

describe('indexFitsLog', () => {
  const log = { identity: 'cluster-a/herald.device-events', deviceEnds: [10, 20] };

  it('accepts a new index and one built from this log', () => {
    expect(indexFitsLog(undefined, {}, log)).toBe(true);
    expect(indexFitsLog(log.identity, { 0: 10, 1: 3 }, log)).toBe(true);
  });

  it('refuses another cluster or topic prefix', () => {
    expect(indexFitsLog('cluster-b/herald.device-events', { 0: 1 }, log)).toBe(false);
    expect(indexFitsLog('cluster-a/bench-1.herald.device-events', {}, log)).toBe(false);
  });

  it('refuses checkpoints past the log (a topic created anew), including partitions it no longer has', () => {
    expect(indexFitsLog(log.identity, { 0: 11 }, log)).toBe(false);
    expect(indexFitsLog(log.identity, { 2: 1 }, log)).toBe(false);
  });
});

describe('openInstance', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('keeps its id and index for the same log, and rebuilds for another', async () => {
    dir = await mkdtemp(join(tmpdir(), 'herald-instance-'));
    const log = { identity: 'cluster-a/herald.device-events', deviceEnds: [5] };
    const first = await openInstance(dir, log);
    first.index.applyDevices(0, [], 5);
    await first.close();

    const again = await openInstance(dir, log);
    expect(again.id).toBe(first.id);
    expect(again.index.next(0)).toBe(5);
    await again.close();

    const recreated = await openInstance(dir, { ...log, deviceEnds: [2] });
    expect(recreated.index.next(0)).toBe(0);
    await recreated.close();

    const reasons: string[] = [];
    const other = await openInstance(dir, { identity: 'cluster-b/herald.device-events', deviceEnds: [5] }, (reason) => reasons.push(reason));
    expect(reasons).toHaveLength(1);
    expect(other.id).not.toBe(first.id);
    expect(other.index.next(0)).toBe(0);
    expect(other.index.storedMeta('log')).toBe('cluster-b/herald.device-events');
    await other.close();
  });

  it('rebuilds an index older releases wrote in LMDB, keeping its instance id', async () => {
    dir = await mkdtemp(join(tmpdir(), 'herald-instance-'));
    const log = { identity: 'cluster-a/herald.device-events', deviceEnds: [5] };
    // As older releases left it: LMDB in <dir>/index.
    const older = open<unknown, Array<string | number>>({ path: join(dir, 'index') });
    await older.put(['meta', 'instance'], 'delivery-0ld1d000');
    await older.put(['meta', 'log'], log.identity);
    await older.put(['c', 'd', 0], 5);
    await older.put([0, 'r', 0], { _id: 'd1', project_id: 'p1', token: 't1', platform: 'ios', status: 'active', topics: [], metadata: {}, since: 0 });
    await older.close();

    const reasons: string[] = [];
    const opened = await openInstance(dir, log, (reason) => reasons.push(reason));
    expect(reasons).toEqual([expect.stringContaining('older format')]);
    expect(opened.id).toBe('delivery-0ld1d000');
    expect(opened.index.next(0)).toBe(0);
    expect([...opened.index.devices(0)]).toEqual([]);
    expect(existsSync(join(dir, 'index'))).toBe(false);
    await opened.close();

    const again = await openInstance(dir, log, (reason) => reasons.push(reason));
    expect(reasons).toHaveLength(1);
    expect(again.id).toBe('delivery-0ld1d000');
    await again.close();
  });

  it('rebuilds an index of another format, keeping its instance id', async () => {
    dir = await mkdtemp(join(tmpdir(), 'herald-instance-'));
    const log = { identity: 'cluster-a/herald.device-events', deviceEnds: [5] };
    const older = AudienceIndex.open(join(dir, 'audience'));
    older.meta('format', () => 'some-later-format');
    older.meta('instance', () => 'delivery-f0rmat00');
    older.applyDevices(0, [], 5);
    await older.close();

    const reasons: string[] = [];
    const opened = await openInstance(dir, log, (reason) => reasons.push(reason));
    expect(reasons).toEqual([expect.stringContaining('older format')]);
    expect(opened.id).toBe('delivery-f0rmat00');
    expect(opened.index.next(0)).toBe(0);
    await opened.close();
  });
});
