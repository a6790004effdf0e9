import { DELIVERY_CONSUMERS } from '@herald/events';
import { coPartitionAssigner, runConsumer } from '@herald/kafka';
import { AdminStore } from '@herald/admin';
import { DeviceQueries, ReadModelRegistry, wrapMongoError } from '@herald/mongo';
import { systemClock } from '@herald/retry';
import type { DeliveryDeps } from '../delivery-deps.ts';
import { rolesOf } from '../config.ts';
import type { DeliveryRuntime } from '../delivery-runtime.ts';
import { projectSetting } from '../control/project-setting.ts';
import { SendPacer } from '../control/send-pace.ts';
import { senderHandler } from './sender.ts';
import type { ProviderClients } from './provider-clients.ts';
import { LaneGate } from './lane-gate.ts';
import { throttlePublisher } from './throttle-publisher.ts';

/**
 * Work-topic partitions a sender lane handles at once. Its send slots
 * (DELIVERY_CONCURRENCY batches) are shared by them, but a chunk whose
 * batches are sent waits for its commit while the next partition's chunk
 * sends: at a kill -9, up to this many chunks per lane were sent and not
 * committed, and are sent again by the partition's next owner.
 */
export const SENDER_PARTITIONS_AT_ONCE = 3;

/**
 * The express lane's chunk: up to this many batches, sent at once and
 * committed in one transaction. Its batches are small sends' (most of one
 * device), so a chunk of DELIVERY_CONCURRENCY (8) batches would cost a
 * transaction per 8 pushes: that was the largest part of Kafka's share of
 * a one-device send. Bounded in bytes too (EXPRESS_CHUNK_BYTES), so a chunk
 * of full 500-device batches holds about as many devices as a campaign
 * lane's chunk: what a kill -9 can re-send stays the same.
 */
export const EXPRESS_CHUNK_BATCHES = 64;
/** About eight full batches of 500 APNs devices (a device is ~110 bytes of the record's JSON). */
export const EXPRESS_CHUNK_BYTES = 512 * 1024;

/**
 * The apns, fcm and webpush roles: for each provider this process sends for, a
 * campaign lane, an express lane (small sends) and a retry lane, each a
 * consumer group with its own send slots; the lanes share the provider's
 * connections, and express calls go first (lane-gate.ts). The campaign and
 * express lanes send each batch once and hand the devices still retryable
 * to the retry lane, so no batch's retries hold a partition's fetch. The
 * consumers go to `runtime.consumers`.
 */
export async function startSenders(deps: DeliveryDeps, runtime: DeliveryRuntime, clients: ProviderClients): Promise<void> {
  const { kafka } = runtime;
  const { config, ports } = deps;
  const roles = rolesOf(config.DELIVERY_ROLES);
  // The senders hold a project's campaign batches to its budget too (read at most every 10 s), so a backlog leaves at the budget, not at once.
  const senderBudgets = projectSetting(new AdminStore(ports.db), (project) => project.budget_per_second);
  const projectPacer = new SendPacer();
  const devices = new DeviceQueries(new ReadModelRegistry(ports.db));
  // Transient store errors are InfrastructureErrors: the sender waits them out in place (batch-sender.ts untilAvailable).
  const webPushSubscriptions = async (projectId: string, ids: readonly string[]) => {
    try {
      return await devices.webPushSubscriptions(projectId, ids);
    } catch (error) {
      throw wrapMongoError(error);
    }
  };
  for (const provider of ['apns', 'fcm', 'webpush', 'hms'] as const) {
    if (!roles.includes(provider)) continue;
    const logger = ports.logger.child({ role: provider });
    const policy = { deadlineMs: config.DELIVERY_RETRY_DEADLINE_MS, minMs: 200, maxMs: 10_000, maxAttempts: config.DELIVERY_MAX_ATTEMPTS };
    // Both lanes of the provider share its connections: express calls go first (lane-gate.ts).
    const gate = new LaneGate();
    // A push service's 429 holds back its own origin in the Web Push client, not the project: no ProjectThrottled for webpush.
    // Push Kit's 429/81000001 holds back the batch (Retry-After) but ProjectThrottled (a v1 event) names APNs or FCM only.
    const onThrottled = provider === 'webpush' || provider === 'hms' ? undefined : throttlePublisher(ports.producer, provider, logger);
    // The campaign lane, the express lane (small sends) and the retry lane (devices still retryable after their
    // batch's first send), each with its own group and send slots: a batch in trouble waits in the retry lane only.
    const lanes = [
      ['campaign', DELIVERY_CONSUMERS[provider]],
      ['express', DELIVERY_CONSUMERS[`${provider}Express`]],
      ['retry', DELIVERY_CONSUMERS[`${provider}Retry`]],
    ] as const;
    for (const [laneName, lane] of lanes) {
      const [topic] = lane.topics;
      const batchesAtOnce = laneName === 'express' ? EXPRESS_CHUNK_BATCHES : config.DELIVERY_CONCURRENCY;
      const held = new Set<number>();
      const laneTopicPartitions = Math.max(1, (await runtime.admin.ends(kafka.topic(topic))).length);
      runtime.consumers.push(
        await runConsumer({
          kafka,
          producer: ports.producer,
          groupId: lane.group,
          topics: lane.topics,
          logger,
          // Sticky: after a rejoin (a broker restart, an instance joining) an instance gets back the partitions it
          // held, so a chunk whose commit was lost returns to the sender that remembers its batches (RecentReports).
          assigner: coPartitionAssigner({ instance: runtime.instance.id, role: 'sender', roles: { sender: kafka.topic(topic) }, checkpoints: () => Object.fromEntries([...held].map((partition) => [String(partition), 1])) }),
          onAssigned: (assignment) => {
            held.clear();
            for (const partition of assignment[topic] ?? []) held.add(partition);
          },
          sessionTimeoutMs: 30_000,
          // A chunk is the batches sent at once, committed together: a crash re-sends at most the batches in flight.
          maxChunkSize: batchesAtOnce,
          ...(laneName === 'express' ? { maxChunkBytes: EXPRESS_CHUNK_BYTES } : {}),
          partitionsConsumedConcurrently: SENDER_PARTITIONS_AT_ONCE,
          transactions: runtime.transactional(lane.group),
          handle: senderHandler({
            provider,
            clients,
            isCancelled: (id) => runtime.controls.isCancelled(id),
            isPaused: (id) => runtime.controls.isPaused(id),
            changed: () => runtime.controls.changed(),
            // The batches of a notification are spread over the lane's partitions by id: this instance sends its share of the pace.
            pacePerSecond: (batch) => {
              const ratePerMinute = runtime.controls.steering(batch.data.notification_id).ratePerMinute ?? batch.data.rate_per_minute;
              return ratePerMinute === undefined ? undefined : (ratePerMinute / 60) * (Math.max(1, held.size) / laneTopicPartitions);
            },
            projectPacer,
            budgetPerSecond: async (projectId) => {
              // The store down: the fan-out's budget still holds; the senders do not wait on the store.
              const budget = await senderBudgets(projectId).catch(() => undefined);
              return budget === undefined ? undefined : budget * (Math.max(1, held.size) / laneTopicPartitions);
            },
            policy,
            clock: systemClock,
            logger,
            concurrency: batchesAtOnce,
            // Every batch of the chunks in hand, and those of a few chunks before: a chunk whose commit was lost is reported again, not re-sent.
            recentReports: Math.max(128, 4 * SENDER_PARTITIONS_AT_ONCE * batchesAtOnce),
            lane: laneName,
            gate,
            ...(onThrottled === undefined ? {} : { onThrottled }),
            ...(provider === 'webpush' ? { webPushSubscriptions } : {}),
            ...(ports.observer === undefined ? {} : { observer: ports.observer }),
          }),
        }),
      );
    }
  }
}
