import { createRequire } from 'node:module';

interface CoordinatorQuery {
  groupId: string;
  coordinatorType?: number;
}

/** The part of kafkajs' (internal) Cluster the cache wraps. */
interface ClusterLike {
  findGroupCoordinatorMetadata: (this: ClusterLike, query: CoordinatorQuery) => Promise<unknown>;
}

/**
 * How long a coordinator's address is reused. A coordinator that moved
 * (a broker restart) answers NOT_COORDINATOR, which kafkajs retries with
 * back-off: a stale answer costs at most this long.
 */
export const COORDINATOR_TTL_MS = 1_000;
const CACHED = Symbol.for('herald.kafkajs.coordinatorCached');

/**
 * kafkajs 2.2.4 asks the cluster for a coordinator before every
 * transactional request (AddPartitionsToTxn, AddOffsetsToTxn,
 * TxnOffsetCommit, EndTxn): four FindCoordinator round trips per
 * transaction, each on the commit path of every delivery stage (2,470 of
 * delivery's 7,000 requests in a 4,000-send benchmark). This reuses an
 * answer (the coordinator's node id; kafkajs still takes the live
 * connection from its pool) for COORDINATOR_TTL_MS per client, group and
 * coordinator type. Calls in flight share one request; failures are not kept.
 */
export function cacheCoordinators(cluster: { prototype: ClusterLike }, now: () => number = Date.now): void {
  const prototype = cluster.prototype as ClusterLike & { [CACHED]?: true };
  if (prototype[CACHED] === true) return;
  const original = prototype.findGroupCoordinatorMetadata;
  if (typeof original !== 'function') throw new Error('kafkajs Cluster has no findGroupCoordinatorMetadata: check libs/kafka/src/coordinator-cache.ts against this kafkajs version');
  type Cache = Map<string, { at: number; answer: Promise<unknown> }>;
  const caches = new WeakMap<object, Cache>();
  prototype.findGroupCoordinatorMetadata = function (this: ClusterLike, query: CoordinatorQuery) {
    let cache = caches.get(this);
    if (cache === undefined) caches.set(this, (cache = new Map() as Cache));
    const key = `${query.coordinatorType ?? 0}|${query.groupId}`;
    const hit = cache.get(key);
    if (hit !== undefined && now() - hit.at < COORDINATOR_TTL_MS) return hit.answer;
    const answer = original.call(this, query);
    const entry = { at: now(), answer };
    cache.set(key, entry);
    answer.catch(() => {
      if (cache.get(key) === entry) cache.delete(key);
    });
    return answer;
  };
  prototype[CACHED] = true;
}

/** The kafkajs Cluster class this process uses (the module kafkajs itself loads). */
export function kafkajsCluster(): { prototype: ClusterLike } {
  const require = createRequire(import.meta.url);
  return require('kafkajs/src/cluster/index.js') as { prototype: ClusterLike };
}
