import { describe, expect, it } from 'vitest';
import { BUDGET_DEBT_MS, budgeted, budgetLane, bucketCapacity, decideBudget, emptyBucket, partitionBudget, refill, spend, workLane } from './budget.ts';

describe('project budget arithmetic', () => {
  it("gives each partition its equal share, and a bucket one slice of it (at least one push)", () => {
    expect(partitionBudget(600, 3)).toBe(200);
    expect(bucketCapacity(200)).toBe(100);
    expect(bucketCapacity(0.5)).toBe(1);
  });

  it('starts a bucket empty (a new owner after a rebalance or kill -9 sends its first slice a slice later: no burst)', () => {
    const start = emptyBucket(1_000);
    expect(decideBudget(start, 200, 1_000)).toEqual({ kind: 'wait', ms: 500 });
    expect(decideBudget(start, 200, 1_490)).toEqual({ kind: 'wait', ms: 10 });
    expect(decideBudget(start, 200, 1_500)).toEqual({ kind: 'run', limit: 100 });
    // Never more than one slice, however long it was idle.
    expect(decideBudget(start, 200, 60_000)).toEqual({ kind: 'run', limit: 100 });
  });

  it('holds the rate over time: a slice per slice time, whatever the step timing', () => {
    let bucket = emptyBucket(0);
    let sent = 0;
    for (let now = 0; now <= 10_000; now += 37) {
      const decision = decideBudget(bucket, 200, now);
      if (decision.kind !== 'run') continue;
      bucket = spend(refill(bucket, 200, now), decision.limit, 200);
      sent += decision.limit;
    }
    // 200/s for 10 s, starting empty: at most 2,000.
    expect(sent).toBeLessThanOrEqual(2_000);
    expect(sent).toBeGreaterThanOrEqual(1_800);
  });

  it('lets transactional sends take the bucket below zero, at most BUDGET_DEBT_MS of the share, so campaigns wait it out', () => {
    const full = refill(emptyBucket(0), 200, 10_000);
    expect(full.tokens).toBe(100);
    const owed = spend(full, 500, 200);
    expect(owed.tokens).toBe(-400);
    expect(decideBudget(owed, 200, 10_000)).toEqual({ kind: 'wait', ms: 2_500 });
    expect(spend(full, 1_000_000, 200).tokens).toBe(-(200 * BUDGET_DEBT_MS) / 1000);
  });

  it('holds a pushed-back project until its Retry-After, then restarts from an empty bucket', () => {
    const full = refill(emptyBucket(0), 200, 10_000);
    expect(decideBudget(full, 200, 10_000, 12_000)).toEqual({ kind: 'wait', ms: 2_000 });
    expect(decideBudget(full, 200, 12_000, 12_000)).toEqual({ kind: 'wait', ms: 500 });
    expect(decideBudget(full, 200, 12_500, 12_000)).toEqual({ kind: 'run', limit: 100 });
    // A push-back already accounted for changes nothing more.
    const after = refill(full, 200, 13_000, 12_000);
    expect(refill(after, 200, 13_000, 12_000)).toEqual(after);
  });
});

describe('lanes', () => {
  it("takes the request's lane; else a forwarded task and a first step are transactional, later steps campaign", () => {
    expect(budgetLane({ lane: 'campaign', step: 0 })).toBe('campaign');
    expect(budgetLane({ lane: 'transactional', step: 1 })).toBe('transactional');
    // A declared transactional send past its first two steps waits for the budget (it cannot escape it by its label).
    expect(budgetLane({ lane: 'transactional', step: 2 })).toBe('campaign');
    expect(budgetLane({ lane: 'transactional', step: 2, forwarded: true })).toBe('transactional');
    expect(budgetLane({ forwarded: true, step: 3 })).toBe('transactional');
    expect(budgetLane({ step: 0 })).toBe('transactional');
    expect(budgetLane({ step: 1 })).toBe('campaign');
  });

  it('sends transactional on the express topics on every step, campaign on the campaign topics even when small, else by size', () => {
    expect(workLane({ lane: 'transactional' }, 'campaign', false)).toBe('express');
    expect(workLane({ lane: 'campaign' }, 'express', false)).toBe('campaign');
    expect(workLane({}, 'express', false)).toBe('express');
    expect(workLane({}, 'campaign', false)).toBe('campaign');
    expect(workLane({ forwarded: true }, 'campaign', false)).toBe('express');
    expect(workLane({ lane: 'transactional' }, 'express', true)).toBe('campaign');
  });

  it("combines a step's pace with the budget: the smaller limit, and either's wait", () => {
    const paced = { kind: 'run' as const, limit: 100, paced: { perSecond: 200, slotAt: 0, ratePerMinute: 12_000 } };
    expect(budgeted(paced, undefined)).toBe(paced);
    expect(budgeted(paced, { kind: 'run', limit: 40 })).toEqual({ ...paced, limit: 40 });
    expect(budgeted(paced, { kind: 'run', limit: 400 })).toEqual(paced);
    expect(budgeted(paced, { kind: 'wait', ms: 30 })).toEqual({ kind: 'wait', ms: 30 });
    expect(budgeted({ kind: 'wait', ms: 200 }, { kind: 'run', limit: 5 })).toEqual({ kind: 'wait', ms: 200 });
    expect(budgeted({ kind: 'expire', limit: 10 }, { kind: 'wait', ms: 5 })).toEqual({ kind: 'expire', limit: 10 });
  });
});
