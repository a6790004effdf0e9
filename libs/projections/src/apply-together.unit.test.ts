import { describe, expect, it } from 'vitest';
import type { ConsumedEvent } from '@herald/kafka';
import { applyTogether } from './apply-together.ts';

const record = (partition: number, offset: number) => ({ partition, offset, topic: 't', event: { type: 'X' } }) as unknown as ConsumedEvent;

function deferred() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

describe('applyTogether', () => {
  it('applies a lone chunk at once, and chunks that arrive meanwhile in one apply, each in its own order', async () => {
    const calls: string[][] = [];
    const gate = deferred();
    const apply = applyTogether(async (records) => {
      calls.push(records.map((r) => `${r.partition}:${r.offset}`));
      if (calls.length === 1) await gate.promise;
    });
    const first = apply([record(0, 1)]);
    const second = apply([record(1, 1), record(1, 2)]);
    const third = apply([record(2, 7)]);
    expect(calls).toEqual([['0:1']]);
    gate.release();
    await Promise.all([first, second, third]);
    expect(calls).toEqual([['0:1'], ['1:1', '1:2', '2:7']]);
  });

  it('when the combined apply fails, applies each chunk alone: only the failing chunk sees the error', async () => {
    const calls: string[][] = [];
    const gate = deferred();
    const apply = applyTogether(async (records) => {
      calls.push(records.map((r) => `${r.partition}:${r.offset}`));
      if (calls.length === 1) await gate.promise;
      if (records.some((r) => r.partition === 2)) throw new Error('poison on partition 2');
    });
    const first = apply([record(0, 1)]);
    const good = apply([record(1, 1)]);
    const bad = apply([record(2, 1)]);
    gate.release();
    await first;
    await expect(good).resolves.toBeUndefined();
    await expect(bad).rejects.toThrow('poison on partition 2');
    expect(calls).toEqual([['0:1'], ['1:1', '2:1'], ['1:1'], ['2:1']]);
  });

  it('goes on after a failure: the next chunk is applied', async () => {
    let fail = true;
    const apply = applyTogether(async () => {
      if (fail) throw new Error('once');
    });
    await expect(apply([record(0, 1)])).rejects.toThrow('once');
    fail = false;
    await expect(apply([record(0, 1)])).resolves.toBeUndefined();
  });
});
