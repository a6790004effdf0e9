import { describe, expect, it } from 'vitest';
import { mayCommit } from './until-committed.ts';

const gate = (owned: boolean, running: boolean) => ({ owned: () => owned, running: () => running });

describe('mayCommit', () => {
  it('commits and retries while the partition is owned and the consumer runs', () => {
    expect(mayCommit(gate(true, true), 1)).toBe(true);
    expect(mayCommit(gate(true, true), 5)).toBe(true);
  });

  it('makes one attempt while the consumer stops (the chunk is done), and no retry', () => {
    expect(mayCommit(gate(true, false), 1)).toBe(true);
    expect(mayCommit(gate(true, false), 2)).toBe(false);
  });

  it('never commits a partition that moved', () => {
    expect(mayCommit(gate(false, true), 1)).toBe(false);
    expect(mayCommit(gate(false, false), 1)).toBe(false);
  });
});
