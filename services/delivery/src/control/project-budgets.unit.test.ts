import { describe, expect, it } from 'vitest';
import { ProjectBudgets } from './project-budgets.ts';

const setup = (budgets: Record<string, number>, throttled: Record<string, number> = {}) =>
  new ProjectBudgets({ budgetOf: async (id) => budgets[id], throttledUntil: (id) => throttled[id], partitions: 2 });
const campaign = { step: 3 };
const transactional = { lane: 'transactional' as const, step: 0 };

describe('ProjectBudgets', () => {
  it("holds a budgeted project's campaign to its share per partition, and leaves other projects alone", async () => {
    const budgets = setup({ a: 400 });
    await budgets.load(['a', 'b']);
    // 400/s over 2 partitions: 200/s each, slices of 100.
    expect(budgets.decide('a', 0, campaign, 0)).toEqual({ kind: 'wait', ms: 500 });
    expect(budgets.decide('a', 0, campaign, 500)).toEqual({ kind: 'run', limit: 100 });
    budgets.spend('a', 0, 100, 500);
    expect(budgets.decide('a', 0, campaign, 600)).toEqual({ kind: 'wait', ms: 400 });
    // Another partition has its own bucket, another project none.
    expect(budgets.decide('a', 1, campaign, 600)).toEqual({ kind: 'wait', ms: 500 });
    expect(budgets.decide('b', 0, campaign, 600)).toBeUndefined();
  });

  it('never holds a transactional step, but what it sends is drawn first, so the campaign waits it out', async () => {
    const budgets = setup({ a: 400 });
    await budgets.load(['a']);
    expect(budgets.decide('a', 0, transactional, 0)).toBeUndefined();
    budgets.spend('a', 0, 300, 0);
    expect(budgets.decide('a', 0, transactional, 0)).toBeUndefined();
    // 300 owed + a slice of 100 at 200/s: 2 s.
    expect(budgets.decide('a', 0, campaign, 0)).toEqual({ kind: 'wait', ms: 2_000 });
  });

  it("holds a pushed-back project's campaign steps (budget or not) until its Retry-After, not its transactional ones", async () => {
    const budgets = setup({}, { a: 5_000 });
    await budgets.load(['a']);
    expect(budgets.decide('a', 0, campaign, 1_000)).toEqual({ kind: 'wait', ms: 4_000 });
    expect(budgets.decide('a', 0, campaign, 5_000)).toBeUndefined();
    expect(budgets.decide('a', 0, transactional, 1_000)).toBeUndefined();
  });

  it('forgets the buckets of partitions it no longer owns: they start empty when they come back', async () => {
    const budgets = setup({ a: 400 });
    await budgets.load(['a']);
    expect(budgets.decide('a', 1, campaign, 0)).toEqual({ kind: 'wait', ms: 500 });
    expect(budgets.decide('a', 1, campaign, 10_000)).toEqual({ kind: 'run', limit: 100 });
    budgets.retain(new Set([0]));
    expect(budgets.decide('a', 1, campaign, 10_000)).toEqual({ kind: 'wait', ms: 500 });
  });
});
