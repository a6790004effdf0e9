import { budgetLane, decideBudget, emptyBucket, partitionBudget, refill, spend, type Bucket, type BudgetDecision, type PriorityLane } from './budget.ts';

export interface ProjectBudgetsDeps {
  /** The project's budget in pushes per second (`herald projects budget`; undefined: unlimited), cached by the caller. */
  budgetOf(projectId: string): Promise<number | undefined>;
  /** Until when a provider pushed back on the project (ProjectThrottled on herald.delivery-control), if it did. */
  throttledUntil(projectId: string): number | undefined;
  /** Partitions of herald.fanout-tasks: the budget is split equally over them. */
  partitions: number;
}

/**
 * The project budgets of the fan-out partitions this process owns: one
 * bucket per (partition, project), kept here because a partition has one
 * owner at a time (the co-partitioned group), and rebuilt empty by a new
 * owner (budget.ts `emptyBucket`: no burst, at most one slice's stall).
 * The budgets themselves are read through `budgetOf` once per chunk, so the
 * per-step decisions are synchronous.
 */
export class ProjectBudgets {
  readonly #deps: ProjectBudgetsDeps;
  readonly #buckets = new Map<string, Bucket>();
  readonly #budgets = new Map<string, number | undefined>();

  constructor(deps: ProjectBudgetsDeps) {
    this.#deps = deps;
  }

  /** Reads the budgets of these projects (the caller's cache decides how fresh), before a chunk's steps are decided. */
  async load(projectIds: Iterable<string>): Promise<void> {
    if (this.#budgets.size > 10_000) this.#budgets.clear();
    for (const id of new Set(projectIds)) this.#budgets.set(id, await this.#deps.budgetOf(id));
  }

  /**
   * What the budget allows a step of `task` now: a transactional step always
   * runs (undefined: no limit); a campaign step of a budgeted or pushed-back
   * project runs with at most the bucket's tokens, or waits.
   */
  decide(projectId: string, partition: number, task: { lane?: PriorityLane | undefined; forwarded?: boolean | undefined; step: number }, now: number): BudgetDecision | undefined {
    if (budgetLane(task) === 'transactional') return undefined;
    const throttled = this.#deps.throttledUntil(projectId);
    const perSecond = this.#share(projectId);
    if (perSecond === undefined) return throttled !== undefined && throttled > now ? { kind: 'wait', ms: throttled - now } : undefined;
    return decideBudget(this.#bucket(projectId, partition, now), perSecond, now, throttled);
  }

  /** Draws what a step queued (any lane) from the project's bucket on the partition. */
  spend(projectId: string, partition: number, devices: number, now: number): void {
    const perSecond = this.#share(projectId);
    if (perSecond === undefined || devices === 0) return;
    const key = `${partition}|${projectId}`;
    const bucket = refill(this.#bucket(projectId, partition, now), perSecond, now, this.#deps.throttledUntil(projectId));
    this.#buckets.set(key, spend(bucket, devices, perSecond));
  }

  /** Forgets the buckets of partitions this process no longer owns (a later return starts them empty). */
  retain(partitions: ReadonlySet<number>): void {
    for (const key of this.#buckets.keys()) if (!partitions.has(Number(key.split('|')[0]))) this.#buckets.delete(key);
  }

  #share(projectId: string): number | undefined {
    const budget = this.#budgets.get(projectId);
    return budget === undefined ? undefined : partitionBudget(budget, this.#deps.partitions);
  }

  #bucket(projectId: string, partition: number, now: number): Bucket {
    const key = `${partition}|${projectId}`;
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      bucket = emptyBucket(now);
      this.#buckets.set(key, bucket);
    }
    return bucket;
  }
}
