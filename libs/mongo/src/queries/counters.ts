import type { Collection } from 'mongodb';
import { sumCounts, type CounterDocument } from '@herald/read-models';

/** A project's counters of these keys, summed over partitions (keys never counted are absent). */
export async function readCounts(counters: Collection<CounterDocument>, projectId: string, keys: readonly string[]): Promise<Map<string, Record<string, number>>> {
  if (keys.length === 0) return new Map();
  const filter = keys.length === 1 ? { project_id: projectId, key: keys[0]! } : { project_id: projectId, key: { $in: [...keys] } };
  return sumCounts(await counters.find(filter, { projection: { _id: 0, key: 1, counts: 1 } }).toArray());
}
