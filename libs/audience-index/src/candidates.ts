import type { AudienceCondition } from '@herald/audience';
import { lookupKey, type Key } from './index-rows.ts';
import type { IndexReader } from './index-reader.ts';

/**
 * Where the index finds the devices a condition may name (pure plan, read
 * by `conditionSources`): the members of lookup keys and named ids, or every
 * device of the partition when no key narrows it (`not`, platform, locale,
 * time zone, a metadata key tested only by `exists` / `ne`). A plan is a
 * superset: every candidate is still checked by the compiled predicate.
 */
export type CandidatePlan = { kind: 'all' } | { kind: 'keys'; keys: Key[]; ids: string[] };

const ALL: CandidatePlan = { kind: 'all' };

/** How many candidates a plan yields at most (key counts, no row read): `and` takes its narrowest part. */
export function planSize(index: Pick<IndexReader, 'countUnder' | 'deviceCount'>, partition: number, plan: CandidatePlan): number {
  if (plan.kind === 'all') return index.deviceCount(partition);
  return plan.ids.length + plan.keys.reduce((sum, key) => sum + index.countUnder(key), 0);
}

export function candidatePlan(index: Pick<IndexReader, 'countUnder' | 'deviceCount'>, partition: number, projectId: string, condition: AudienceCondition): CandidatePlan {
  if ('and' in condition) {
    let best: CandidatePlan = ALL;
    let bestSize = Number.POSITIVE_INFINITY;
    for (const child of condition.and) {
      const plan = candidatePlan(index, partition, projectId, child);
      if (plan.kind === 'all') continue;
      const size = planSize(index, partition, plan);
      if (size < bestSize) [best, bestSize] = [plan, size];
    }
    return best;
  }
  if ('or' in condition) {
    const keys: Key[] = [];
    const ids: string[] = [];
    for (const child of condition.or) {
      const plan = candidatePlan(index, partition, projectId, child);
      if (plan.kind === 'all') return ALL;
      keys.push(...plan.keys);
      ids.push(...plan.ids);
    }
    return { kind: 'keys', keys, ids };
  }
  if ('topic_id' in condition) return { kind: 'keys', keys: [lookupKey.topic(partition, condition.topic_id)], ids: [] };
  if ('device_id' in condition) return { kind: 'keys', keys: [], ids: [condition.device_id] };
  // The device holding a token has its key on its own partition (index-rows.ts memberKeys), whichever token its id came from.
  if ('token' in condition) return { kind: 'keys', keys: [lookupKey.token(partition, projectId, condition.token)], ids: [] };
  if ('external_id' in condition) return { kind: 'keys', keys: [lookupKey.user(partition, projectId, condition.external_id)], ids: [] };
  if ('metadata' in condition) {
    for (const [key, test] of Object.entries(condition.metadata)) {
      if (typeof test === 'string') return { kind: 'keys', keys: [lookupKey.metadata(partition, projectId, key, test)], ids: [] };
      if ('in' in test) return { kind: 'keys', keys: test.in.map((value) => lookupKey.metadata(partition, projectId, key, value)), ids: [] };
    }
  }
  return ALL;
}

/** The ascending ordinal streams of a plan past `start` (merged by the caller). */
export function planSources(index: Pick<IndexReader, 'ordinals' | 'allOrdinals' | 'ordinalOf'>, partition: number, plan: CandidatePlan, start: number): Array<Iterator<number>> {
  if (plan.kind === 'all') return [index.allOrdinals(partition, start)];
  const named: number[] = [];
  for (const id of plan.ids) {
    const ordinal = index.ordinalOf(partition, id);
    if (ordinal !== undefined && ordinal > start) named.push(ordinal);
  }
  return [named.sort((a, b) => a - b)[Symbol.iterator](), ...plan.keys.map((key) => index.ordinals(key, start))];
}
