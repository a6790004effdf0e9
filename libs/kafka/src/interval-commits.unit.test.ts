import { describe, expect, it } from 'vitest';
import { PendingPositions } from './interval-commits.ts';

describe('PendingPositions', () => {
  it('keeps the latest position of each partition, as the next offset to read', () => {
    const pending = new PendingPositions();
    pending.done('t', 0, 9);
    pending.done('t', 0, 19);
    pending.done('t', 1, 4);
    pending.done('u', 0, 0);
    expect(pending.take()).toEqual([
      { topic: 't', partition: 0, offset: '20' },
      { topic: 't', partition: 1, offset: '5' },
      { topic: 'u', partition: 0, offset: '1' },
    ]);
    expect(pending.take()).toEqual([]);
  });

  it('never moves a position back (a late chunk of an older fetch)', () => {
    const pending = new PendingPositions();
    pending.done('t', 0, 19);
    pending.done('t', 0, 9);
    expect(pending.take()).toEqual([{ topic: 't', partition: 0, offset: '20' }]);
  });

  it('drops what it holds after a rejoin', () => {
    const pending = new PendingPositions();
    pending.done('t', 0, 19);
    pending.forget();
    expect(pending.take()).toEqual([]);
  });

  it('commits no further than a cap, and the rest once the cap is gone', () => {
    const pending = new PendingPositions();
    let held: number | undefined = 12;
    const cap = (_topic: string, partition: number) => (partition === 0 ? held : undefined);
    pending.done('t', 0, 19);
    pending.done('t', 1, 4);
    expect(pending.take(cap)).toEqual([
      { topic: 't', partition: 0, offset: '12' },
      { topic: 't', partition: 1, offset: '5' },
    ]);
    // The same cap is not committed again.
    expect(pending.take(cap)).toEqual([]);
    held = 15;
    expect(pending.take(cap)).toEqual([{ topic: 't', partition: 0, offset: '15' }]);
    held = undefined;
    expect(pending.take(cap)).toEqual([{ topic: 't', partition: 0, offset: '20' }]);
    expect(pending.take(cap)).toEqual([]);
  });

  it('commits a done position at or below the cap whole', () => {
    const pending = new PendingPositions();
    pending.done('t', 0, 9);
    expect(pending.take(() => 10)).toEqual([{ topic: 't', partition: 0, offset: '10' }]);
  });
});
