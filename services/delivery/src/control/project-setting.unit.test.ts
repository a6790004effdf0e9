import { describe, expect, it } from 'vitest';
import type { Project } from '@herald/admin';
import { projectSetting } from './project-setting.ts';

describe('projectSetting', () => {
  it('reads a project setting at most every 10 s per project', async () => {
    let clock = 0;
    let reads = 0;
    const stored: Record<string, Project> = { p1: { _id: 'p1', name: 'one', created_at: new Date(0), budget_per_second: 300 } };
    const budgetOf = projectSetting({ findProject: async (id) => (reads++, stored[id] ?? null) }, (project) => project.budget_per_second, () => clock);
    expect(await budgetOf('p1')).toBe(300);
    stored.p1!.budget_per_second = 50;
    clock = 9_999;
    expect(await budgetOf('p1')).toBe(300);
    clock = 10_000;
    expect(await budgetOf('p1')).toBe(50);
    expect(await budgetOf('missing')).toBeUndefined();
    expect(reads).toBe(3);
  });
});
