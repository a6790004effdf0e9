import { describe, expect, it } from 'vitest';
import { cacheCoordinators, COORDINATOR_TTL_MS, kafkajsCluster } from './coordinator-cache.ts';

function fakeCluster(answers: Array<() => Promise<unknown>>) {
  const asked: string[] = [];
  class Cluster {
    findGroupCoordinatorMetadata(query: { groupId: string; coordinatorType?: number }): Promise<unknown> {
      asked.push(`${query.coordinatorType ?? 0}|${query.groupId}`);
      return answers.shift()!();
    }
  }
  return { Cluster, asked };
}

describe('cacheCoordinators', () => {
  it('reuses an answer per client, group and type for the TTL, then asks again', async () => {
    let clock = 0;
    const { Cluster, asked } = fakeCluster([async () => ({ coordinator: { nodeId: 1 } }), async () => ({ coordinator: { nodeId: 2 } }), async () => ({ coordinator: { nodeId: 1 } }), async () => ({ coordinator: { nodeId: 3 } })]);
    cacheCoordinators(Cluster, () => clock);
    const one = new Cluster();
    expect(await one.findGroupCoordinatorMetadata({ groupId: 'g' })).toEqual({ coordinator: { nodeId: 1 } });
    expect(await one.findGroupCoordinatorMetadata({ groupId: 'g' })).toEqual({ coordinator: { nodeId: 1 } });
    expect(await one.findGroupCoordinatorMetadata({ groupId: 'g', coordinatorType: 1 })).toEqual({ coordinator: { nodeId: 2 } });
    expect(await new Cluster().findGroupCoordinatorMetadata({ groupId: 'g' })).toEqual({ coordinator: { nodeId: 1 } });
    clock += COORDINATOR_TTL_MS;
    expect(await one.findGroupCoordinatorMetadata({ groupId: 'g' })).toEqual({ coordinator: { nodeId: 3 } });
    expect(asked).toEqual(['0|g', '1|g', '0|g', '0|g']);
  });

  it('shares a request in flight and keeps no failure', async () => {
    const { Cluster, asked } = fakeCluster([async () => Promise.reject(new Error('GROUP_COORDINATOR_NOT_AVAILABLE')), async () => ({ coordinator: { nodeId: 1 } })]);
    cacheCoordinators(Cluster, () => 0);
    const cluster = new Cluster();
    const [a, b] = await Promise.allSettled([cluster.findGroupCoordinatorMetadata({ groupId: 'g' }), cluster.findGroupCoordinatorMetadata({ groupId: 'g' })]);
    expect([a.status, b.status]).toEqual(['rejected', 'rejected']);
    expect(await cluster.findGroupCoordinatorMetadata({ groupId: 'g' })).toEqual({ coordinator: { nodeId: 1 } });
    expect(asked).toEqual(['0|g', '0|g']);
  });

  it("finds the method in this kafkajs version's Cluster", () => {
    expect(typeof kafkajsCluster().prototype.findGroupCoordinatorMetadata).toBe('function');
  });
});
