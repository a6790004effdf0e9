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
});
