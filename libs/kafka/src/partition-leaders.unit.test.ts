import { describe, expect, it } from 'vitest';
import { busiestLeader, countLeaders } from './partition-leaders.ts';

describe('partition leaders', () => {
  it('counts partitions per leader, leaving out partitions without one', () => {
    expect([...countLeaders([1, 2, 2, -1, 3, 2])].sort()).toEqual([[1, 1], [2, 3], [3, 1]]);
  });

  it('picks the broker leading the most, the lowest id on a tie, none when nobody leads', () => {
    expect(busiestLeader(new Map([[3, 2], [1, 4], [2, 1]]))).toBe(1);
    expect(busiestLeader(new Map([[3, 2], [2, 2]]))).toBe(2);
    expect(busiestLeader(new Map())).toBeUndefined();
  });
});
