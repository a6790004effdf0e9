import { describe, expect, it } from 'vitest';
import { assignCoPartitioned, type CoPartitionMember } from './co-partition.ts';

const roles = { index: 'devices', tasks: 'tasks' };
const pair = (instance: string, checkpoints: Record<string, number> = {}): CoPartitionMember[] => [
  { memberId: `${instance}-i`, instance, role: 'index', checkpoints },
  { memberId: `${instance}-t`, instance, role: 'tasks', checkpoints: {} },
];

describe('assignCoPartitioned', () => {
  it('gives both members of an instance the same partitions, and shares them evenly', () => {
    const assignment = assignCoPartitioned([...pair('a'), ...pair('b'), ...pair('c')], roles, 7);
    const owned = ['a', 'b', 'c'].map((instance) => assignment.get(`${instance}-i`)!.devices!);
    for (const instance of ['a', 'b', 'c']) expect(assignment.get(`${instance}-t`)!.tasks).toEqual(assignment.get(`${instance}-i`)!.devices);
    expect(owned.flat().sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const partitions of owned) expect(partitions.length).toBeLessThanOrEqual(3);
  });

  it('hands a partition to the instance that has applied the most of it', () => {
    const assignment = assignCoPartitioned([...pair('a', { 0: 10, 1: 500 }), ...pair('b', { 0: 900, 1: 20 })], roles, 2);
    expect(assignment.get('a-i')!.devices).toEqual([1]);
    expect(assignment.get('b-i')!.devices).toEqual([0]);
  });

  it('keeps the balance when one instance has the most of everything', () => {
    const assignment = assignCoPartitioned([...pair('a', { 0: 9, 1: 9, 2: 9, 3: 9 }), ...pair('b')], roles, 4);
    expect(assignment.get('a-i')!.devices).toHaveLength(2);
    expect(assignment.get('b-t')!.tasks).toHaveLength(2);
  });

  it('gives nothing to an instance whose index member has not joined yet, and partitions to one whose task member has not', () => {
    const lone: CoPartitionMember = { memberId: 'c-t', instance: 'c', role: 'tasks', checkpoints: {} };
    const early: CoPartitionMember = { memberId: 'd-i', instance: 'd', role: 'index', checkpoints: {} };
    const assignment = assignCoPartitioned([...pair('a'), lone, early], roles, 4);
    expect(assignment.get('c-t')).toEqual({});
    expect(assignment.get('a-i')!.devices).toHaveLength(2);
    expect(assignment.get('d-i')!.devices).toHaveLength(2);
  });

  it('gives an instance that joins its share, taking the fewest partitions from the others', () => {
    const held = { a: [0, 1], b: [2, 3], c: [4, 5] };
    const checkpoints = (partitions: number[]) => Object.fromEntries(partitions.map((partition) => [String(partition), 100]));
    const assignment = assignCoPartitioned([...pair('a', checkpoints(held.a)), ...pair('b', checkpoints(held.b)), ...pair('c', checkpoints(held.c)), ...pair('d')], roles, 6);
    const owned = Object.fromEntries(['a', 'b', 'c', 'd'].map((instance) => [instance, assignment.get(`${instance}-i`)!.devices!]));
    expect(Object.values(owned).map((partitions) => partitions.length).sort()).toEqual([1, 1, 2, 2]);
    expect(owned.d).toHaveLength(1);
    // Two of the three keep both of theirs; every partition kept stays where it was.
    for (const instance of ['a', 'b', 'c'] as const) for (const partition of owned[instance]!) expect(held[instance]).toContain(partition);
  });

  it('is the same whatever order the members come in', () => {
    const members = [...pair('b', { 2: 4 }), ...pair('a', { 0: 1 }), ...pair('c')];
    const once = assignCoPartitioned(members, roles, 6);
    const again = assignCoPartitioned([...members].reverse(), roles, 6);
    expect(Object.fromEntries(again)).toEqual(Object.fromEntries(once));
  });
});
