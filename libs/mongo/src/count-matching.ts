import type { Collection, Document, Filter } from 'mongodb';

/**
 * How many documents match `filter` (at most `limit`, when given).
 *
 * Counted by a `$count` stage rather than the driver's `countDocuments`,
 * which runs a `$group`: FerretDB 1.x's `$group` holds every document it
 * groups in memory until the input ends (counting 1M devices took the store
 * past 6 GB, and any API key could ask for that with a device listing),
 * while its `$count` counts as the documents stream by. On MongoDB the two
 * pipelines use the same index for `$match`.
 */
export async function countMatching<T extends Document>(collection: Collection<T>, filter: Filter<T>, options: { limit?: number } = {}): Promise<number> {
  const pipeline: Document[] = [{ $match: filter }];
  if (options.limit !== undefined) pipeline.push({ $limit: options.limit });
  pipeline.push({ $count: 'n' });
  const [row] = await collection.aggregate<{ n: number }>(pipeline).toArray();
  return row?.n ?? 0;
}
