import { describe, expect, it } from 'vitest';
import { AppError, InfrastructureError, RebalanceError } from '@herald/errors';
import { createEvent, decodeEvent, deviceIdFor, encodeEvent } from '@herald/events';
import type { SourceRecord } from './dead-letter.ts';
import { chunkEnd, processChunk, type ChunkStages, type ConsumedEvent, type Letter } from './process-chunk.ts';

/** An in-memory partition: records as the broker would hand them over. */
function source(tokens: readonly string[]): SourceRecord[] {
  return tokens.map((token, index) => {
    const value =
      token === 'garbage'
        ? Buffer.from('not json')
        : Buffer.from(String(encodeEvent(createEvent('DeviceRegistered', { device_id: deviceIdFor('p', token), token, platform: 'ios' }, { project_id: 'p' })).value));
    return { topic: 'herald.device-events', partition: 0, offset: String(index), key: null, value };
  });
}

const tokenOf = (record: ConsumedEvent) => (record.event.type === 'DeviceRegistered' ? record.event.data.token : '?');

function stages(handle: (records: ConsumedEvent[]) => Promise<void>, overrides: Partial<ChunkStages> = {}) {
  const letters: Letter[] = [];
  const sleeps: number[] = [];
  const built: ChunkStages = {
    decode: (record) => ({ event: decodeEvent(record.value), topic: 'device-events', partition: record.partition, offset: Number(record.offset) }),
    handle,
    deadLetter: async (batch) => void letters.push(...batch),
    classify: (error) => error,
    active: () => true,
    clock: { now: () => 0, sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 },
    ...overrides,
  };
  return { built, letters, sleeps };
}

describe('processChunk', () => {
  it('dead-letters undecodable records with their source and handles the rest', async () => {
    const handled: string[] = [];
    const { built, letters } = stages(async (records) => void handled.push(...records.map(tokenOf)));
    const outcome = await processChunk(source(['a', 'garbage', 'b']), built);
    expect(outcome).toEqual({ kind: 'done', handled: 2, deadLettered: 1 });
    expect(handled).toEqual(['a', 'b']);
    expect(letters.map((letter) => letter.record.offset)).toEqual(['1']);
  });

  it('retries infrastructure errors with growing back-off and no cap, never dead-lettering', async () => {
    let failures = 20;
    const { built, letters, sleeps } = stages(async () => {
      if (failures-- > 0) throw new InfrastructureError('MONGO_UNAVAILABLE', 'store down');
    });
    const outcome = await processChunk(source(['a', 'b']), built, { minMs: 100, maxMs: 5_000 });
    expect(outcome).toEqual({ kind: 'done', handled: 2, deadLettered: 0 });
    expect(letters).toHaveLength(0);
    expect(sleeps).toHaveLength(20);
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(5_000);
    expect(sleeps[3]!).toBeGreaterThan(sleeps[0]!);
  });

  it('classifies raw errors through the classify stage', async () => {
    let failures = 1;
    const raw = new Error('socket closed');
    const { built, letters } = stages(
      async () => {
        if (failures-- > 0) throw raw;
      },
      { classify: (error) => (error === raw ? new InfrastructureError('KAFKA_UNAVAILABLE', 'down', { cause: raw }) : error) },
    );
    expect(await processChunk(source(['a']), built)).toMatchObject({ kind: 'done', handled: 1 });
    expect(letters).toHaveLength(0);
  });

  it('isolates a permanent failure one by one and dead-letters only the culprit', async () => {
    const handled: string[] = [];
    const { built, letters } = stages(async (records) => {
      if (records.some((record) => tokenOf(record) === 'poison')) throw new AppError('UNPROCESSABLE', 'poison');
      handled.push(...records.map(tokenOf));
    });
    const outcome = await processChunk(source(['a', 'poison', 'b']), built);
    expect(outcome).toEqual({ kind: 'done', handled: 2, deadLettered: 1 });
    expect(handled).toEqual(['a', 'b']);
    expect(letters).toHaveLength(1);
    expect(letters[0]!.record.offset).toBe('1');
    expect((letters[0]!.error as AppError).code).toBe('UNPROCESSABLE');
  });

  it('abandons the chunk on a rebalance: nothing dead-lettered, nothing reported done', async () => {
    const { built, letters } = stages(async () => {
      throw new RebalanceError();
    });
    const outcome = await processChunk(source(['a', 'b']), built);
    expect(outcome).toMatchObject({ kind: 'abandoned', reason: 'rebalance' });
    expect(letters).toHaveLength(0);
  });

  it('abandons a chunk still retrying once the consumer stops', async () => {
    let running = true;
    const { built, letters } = stages(
      async () => {
        running = false;
        throw new InfrastructureError('KAFKA_UNAVAILABLE', 'down');
      },
      { active: () => running },
    );
    expect(await processChunk(source(['a']), built)).toEqual({ kind: 'abandoned', reason: 'stopped' });
    expect(letters).toHaveLength(0);
  });
});

describe('chunkEnd', () => {
  const sized = (...bytes: number[]) => bytes.map((length) => ({ value: Buffer.alloc(length) }));

  it('ends at the record count when the bytes allow', () => {
    expect(chunkEnd(sized(10, 10, 10, 10, 10), 0, 2)).toBe(2);
    expect(chunkEnd(sized(10, 10, 10, 10, 10), 4, 2)).toBe(5);
  });

  it('ends before the record that would pass the byte bound, and always takes one record', () => {
    expect(chunkEnd(sized(400, 400, 400, 10), 0, 64, 1_000)).toBe(2);
    expect(chunkEnd(sized(400, 400, 400, 10), 2, 64, 1_000)).toBe(4);
    expect(chunkEnd(sized(5_000, 10), 0, 64, 1_000)).toBe(1);
    expect(chunkEnd([{ value: null }, { value: null }], 0, 64, 1)).toBe(2);
  });
});
