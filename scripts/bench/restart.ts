// `--restart-delivery`: how soon a delivery instance restarted on its own
// directory (the audience index checkpoint) can fan out again.
import { DELIVERY_CONSUMERS, TOPICS } from '@herald/events';
import { withLogAdmin } from '@herald/kafka';
import type { Deadline } from './deadline.ts';
import type { BenchInfra } from './infra.ts';
import { waitForIndex } from './index-watch.ts';
import type { PositionReader } from './offsets.ts';
import type { BenchSystem } from './system.ts';

/**
 * Stops every delivery instance (SIGTERM), starts each again on its
 * directory, and waits until it can fan out: every delivery consumer group
 * Stable with a member, and every device-events partition's index at the
 * log's ends (restored from the checkpoint, plus anything it missed). With
 * several instances that is the first moment every partition is served; the
 * later joiners' rebalance follows.
 */
export async function restartFromCheckpoint(system: BenchSystem, infra: BenchInfra, positions: PositionReader, deadline: Deadline): Promise<{ stopS: number; readyS: number }> {
  const ends = await positions.ends(TOPICS.deviceEvents);
  const { stoppedMs, spawnedAt } = await system.restartDeliveries();
  const groups = Object.values(DELIVERY_CONSUMERS).map((consumer) => infra.kafka.group(consumer.group));
  // One admin client for the whole wait, polled every 100 ms.
  const joined = withLogAdmin(infra.kafka, async (admin) => {
    for (;;) {
      const stable = await Promise.all(groups.map(async (group) => (await admin.stableMembers(group).catch(() => 0)) > 0));
      if (stable.every(Boolean)) return performance.now();
      deadline.check('restarting delivery', 'its consumer groups have not joined');
      await new Promise((done) => setTimeout(done, 100));
    }
  });
  const indexed = waitForIndex({ metricsUrls: () => system.deliveryMetricsUrls(), ends, deadline, progress: () => undefined, pollMs: 100 });
  const readyAt = Math.max(await joined, await indexed);
  return { stopS: stoppedMs / 1000, readyS: (readyAt - spawnedAt) / 1000 };
}
