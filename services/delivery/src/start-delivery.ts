import { setTimeout as sleep } from 'node:timers/promises';
import { DELIVERY_CONSUMERS, TOPICS, type FanoutMessage } from '@herald/events';
import {
  coPartitionAssigner,
  highsByPartition,
  openLogAdmin,
  partitionForKey,
  readRecordAt,
  runConsumer,
  TransactionalProducer,
  type EventProducer,
  type HeraldKafka,
  type RunningConsumer,
} from '@herald/kafka';
import { ReadModelRegistry, wrapMongoError, type Db } from '@herald/mongo';
import type { DeviceDocument } from '@herald/projections';
import { ConfigError } from '@herald/errors';
import type { Logger } from '@herald/log';
import { AdminStore } from '@herald/admin';
import { systemClock, type Clock } from '@herald/runtime';
import type { Role } from './config.ts';
import { senderHandler, type SenderObserver } from './sender/sender.ts';
import { ProviderClients, type CredentialSource } from './sender/provider-clients.ts';
import { ScheduleStore } from './schedule/schedule-store.ts';
import { startScheduler } from './schedule/scheduler.ts';
import { openInstance } from './index/open-instance.ts';
import { followLog } from './index/follow-log.ts';
import { fanoutRoles, runAudienceIndex } from './index/run-index.ts';
import { DeliveryControls } from './control/delivery-controls.ts';
import { ProjectBudgets } from './control/project-budgets.ts';
import { projectSetting } from './control/project-setting.ts';
import { SendPacer } from './control/send-pace.ts';
import { LaneGate } from './sender/lane-gate.ts';
import { throttlePublisher } from './sender/throttle-publisher.ts';
import { coordinatorHandler, COORDINATOR_TYPES } from './fanout/coordinator.ts';
import { taskHandler } from './fanout/task-runner.ts';
import { CapStore } from './control/cap-store.ts';
import { projectCaps, releasedBatch } from './control/project-caps.ts';

/**
 * Work-topic partitions a sender lane handles at once. Its send slots
 * (DELIVERY_CONCURRENCY batches) are shared by them, but a chunk whose
 * batches are sent waits for its commit while the next partition's chunk
 * sends: at a kill -9, up to this many chunks per lane were sent and not
 * committed, and are sent again by the partition's next owner.
 */
export const SENDER_PARTITIONS_AT_ONCE = 3;

export interface DeliveryDeps {
  kafka: HeraldKafka;
  producer: EventProducer;
  db: Db;
  logger: Logger;
  roles: readonly Role[];
  credentials: CredentialSource;
  /** This instance's directory: its audience index and its id (one process per directory). */
  indexDir: string;
  apnsEndpoint?: string | undefined;
  fcmEndpoint?: string | undefined;
  /** Extra trusted CA for in-process tests; processes use NODE_EXTRA_CA_CERTS. */
  ca?: string | undefined;
  retryDeadlineMs?: number;
  /** Notifications requested longer ago than this are not sent (a consumer group reset must not replay old campaigns). */
  maxAgeMs?: number;
  /** Audience devices per fan-out step (the first step reads at most 1,000). */
  fanoutStepDevices?: number;
  /** Fan-out partitions worked on at once. */
  fanoutConcurrency?: number;
  concurrency?: number;
  /** Sends of a batch that may throw before its open devices are reported failed (AttemptsExhausted). */
  maxAttempts?: number;
  apnsMaxInFlight?: number;
  apnsRequestTimeoutMs?: number;
  fcmMaxConcurrentChunks?: number;
  observer?: SenderObserver;
  /** Progress of the audience index, per device-events partition (metrics). */
  onIndexApplied?: (partition: number, next: number, records: number) => void;
  /** Schedule decisions; tests move it (HERALD_CLOCK_FILE). Default: the system clock. */
  scheduleClock?: Clock;
  /** How soon the scheduler looks again while due sends are leased. */
  schedulerPollMs?: number;
  /** The longest the scheduler sleeps with nothing due (scheduler.ts). */
  schedulerIdleMs?: number;
  /** Longest a chunk of waiting (paced, paused) fan-out tasks is held before they are queued again. */
  paceHoldMs?: number;
}

export interface RunningDelivery {
  ready: Promise<void>;
  /** This process's id in the fan-out group (stable for its index directory). */
  instance: string;
  stop(): Promise<void>;
}

/**
 * Starts the chosen roles. Every role follows delivery-control (cancels);
 * the fanout role also keeps the audience index of the device-events
 * partitions it holds, takes requests (group herald.fanout) and runs the
 * partition tasks (group herald.fanout-partitions); apns and fcm send in
 * two lanes each. Every consumer that writes commits its output and its
 * offsets in one Kafka transaction.
 */
export async function startDelivery(deps: DeliveryDeps): Promise<RunningDelivery> {
  const { kafka } = deps;
  const admin = await openLogAdmin(kafka);
  const deviceEnds = async () => highsByPartition(await admin.ends(kafka.topic(TOPICS.deviceEvents)));
  const log = { identity: `${await admin.clusterId()}/${kafka.topic(TOPICS.deviceEvents)}`, deviceEnds: await deviceEnds() };
  const instance = await openInstance(deps.indexDir, log, (reason) => deps.logger.warn({ dir: deps.indexDir }, reason));
  const consumers: RunningConsumer[] = [];
  const producers: TransactionalProducer[] = [];
  const transactional = (group: string) => {
    const producer = new TransactionalProducer(kafka, { transactionalId: `${instance.id}.${group}`, groupId: group });
    producers.push(producer);
    return producer;
  };
  const controls = new DeliveryControls();
  const follower = await followLog({ kafka, index: instance.index, controls, logger: deps.logger.child({ component: 'log-follower' }) });
  const partitionCount = (await assertCoPartitioned(admin, kafka)).length;
  const maxAgeMs = deps.maxAgeMs ?? 24 * 60 * 60 * 1000;
  const clients = new ProviderClients({
    credentials: deps.credentials,
    logger: deps.logger.child({ component: 'provider-clients' }),
    apnsEndpoint: deps.apnsEndpoint,
    fcmEndpoint: deps.fcmEndpoint,
    ca: deps.ca,
    ...(deps.apnsMaxInFlight === undefined ? {} : { apnsMaxInFlight: deps.apnsMaxInFlight }),
    ...(deps.apnsRequestTimeoutMs === undefined ? {} : { apnsRequestTimeoutMs: deps.apnsRequestTimeoutMs }),
    ...(deps.fcmMaxConcurrentChunks === undefined ? {} : { fcmMaxConcurrentChunks: deps.fcmMaxConcurrentChunks }),
  });
  const clock = { now: () => Date.now(), sleep: (ms: number) => sleep(ms).then(() => undefined), random: Math.random };
  let scheduler: { stop(): Promise<void> } | undefined;
  await follower.ready;

  if (deps.roles.includes('fanout')) {
    const logger = deps.logger.child({ role: 'fanout' });
    const schedules = new ScheduleStore(deps.db);
    const admins = new AdminStore(deps.db);
    const readModels = new ReadModelRegistry(deps.db);
    const index = await runAudienceIndex({ kafka, producer: deps.producer, index: instance.index, instance: instance.id, logger: logger.child({ component: 'audience-index' }), ...(deps.onIndexApplied === undefined ? {} : { onApplied: deps.onIndexApplied }) });
    consumers.push(index.consumer);
    const partitions = DELIVERY_CONSUMERS.fanoutPartitions;
    const budgets = new ProjectBudgets({ budgetOf: projectSetting(admins, (project) => project.budget_per_second), throttledUntil: (id) => controls.throttledUntil(id), partitions: partitionCount });
    consumers.push(
      await runConsumer({
        kafka,
        producer: deps.producer,
        groupId: partitions.group,
        topics: partitions.topics,
        logger,
        sessionTimeoutMs: 30_000,
        maxChunkSize: 32,
        partitionsConsumedConcurrently: deps.fanoutConcurrency ?? 64,
        types: new Set(['FanoutTask']),
        assigner: coPartitionAssigner({ instance: instance.id, role: 'tasks', roles: fanoutRoles(kafka) }),
        onAssigned: (assignment) => budgets.retain(new Set(assignment[TOPICS.fanoutTasks] ?? [])),
        transactions: transactional(partitions.group),
        handle: taskHandler({
          index: instance.index,
          waitFor: index.waitFor,
          isCancelled: (id) => controls.isCancelled(id),
          steering: (id) => controls.steering(id),
          changed: () => controls.changed(),
          budgets,
          ...(deps.paceHoldMs === undefined ? {} : { holdMs: deps.paceHoldMs }),
          deviceEnds,
          loadMessage: async (partition, offset) => messageIn(await readRecordAt(kafka, TOPICS.fanoutTasks, partition, offset)),
          partitionOf: (deviceId) => partitionForKey(deviceId, partitionCount),
          logger,
          maxAgeMs,
          ...(deps.fanoutStepDevices === undefined ? {} : { stepDevices: deps.fanoutStepDevices }),
          caps: { state: new CapStore(deps.db), schedules, now: () => (deps.scheduleClock ?? systemClock).now() },
        }),
      }),
    );
    consumers.push(
      await runConsumer({
        kafka,
        producer: deps.producer,
        groupId: DELIVERY_CONSUMERS.fanout.group,
        topics: DELIVERY_CONSUMERS.fanout.topics,
        logger,
        sessionTimeoutMs: 30_000,
        maxChunkSize: 500,
        partitionsConsumedConcurrently: 64,
        types: COORDINATOR_TYPES,
        transactions: transactional(DELIVERY_CONSUMERS.fanout.group),
        handle: coordinatorHandler({
          schedules,
          controls,
          ends: async () => ({ devices: await admin.ends(kafka.topic(TOPICS.deviceEvents)), topics: await admin.ends(kafka.topic(TOPICS.topicEvents)) }),
          waitForTopics: follower.waitForTopics,
          topicOf: (projectId, idOrName) => instance.index.topicOf(projectId, idOrName),
          partitionOf: partitionForKey,
          registeredZones: (projectId) => registeredZones(readModels, projectId),
          defaultTimezone: async (projectId) => (await admins.findProject(projectId))?.default_timezone,
          projectRate: projectSetting(admins, (project) => project.default_rate_per_minute),
          projectCaps: projectCaps(admins),
          releases: { batchOf: async (id) => releasedBatch(await schedules.released(id)) },
          clock: deps.scheduleClock ?? systemClock,
          maxAgeMs,
          logger,
        }),
      }),
    );
    // Every fan-out instance looks (at the next due time, when it holds a send, and every schedulerIdleMs); a lease on each schedule makes one of them announce it.
    scheduler = startScheduler({
      schedules,
      producer: deps.producer,
      clock: deps.scheduleClock ?? systemClock,
      logger: logger.child({ component: 'scheduler' }),
      maxAgeMs,
      ...(deps.schedulerPollMs === undefined ? {} : { pollMs: deps.schedulerPollMs }),
      ...(deps.schedulerIdleMs === undefined ? {} : { idleMs: deps.schedulerIdleMs }),
    });
  }
  // The senders hold a project's campaign batches to its budget too (read at most every 10 s), so a backlog leaves at the budget, not at once.
  const senderBudgets = projectSetting(new AdminStore(deps.db), (project) => project.budget_per_second);
  const projectPacer = new SendPacer();
  for (const provider of ['apns', 'fcm'] as const) {
    if (!deps.roles.includes(provider)) continue;
    const logger = deps.logger.child({ role: provider });
    const policy = { deadlineMs: deps.retryDeadlineMs ?? 30_000, minMs: 200, maxMs: 10_000, maxAttempts: deps.maxAttempts ?? 5 };
    // Both lanes of the provider share its connections: express calls go first (lane-gate.ts).
    const gate = new LaneGate();
    const onThrottled = throttlePublisher(deps.producer, provider, logger);
    // The campaign lane and the express lane (small sends), each with its own group and send slots.
    for (const [laneName, lane] of [['campaign', DELIVERY_CONSUMERS[provider]], ['express', DELIVERY_CONSUMERS[`${provider}Express`]]] as const) {
      const [topic] = lane.topics;
      const held = new Set<number>();
      const laneTopicPartitions = Math.max(1, (await admin.ends(kafka.topic(topic))).length);
      consumers.push(
        await runConsumer({
          kafka,
          producer: deps.producer,
          groupId: lane.group,
          topics: lane.topics,
          logger,
          // Sticky: after a rejoin (a broker restart, an instance joining) an instance gets back the partitions it
          // held, so a chunk whose commit was lost returns to the sender that remembers its batches (RecentReports).
          assigner: coPartitionAssigner({ instance: instance.id, role: 'sender', roles: { sender: kafka.topic(topic) }, checkpoints: () => Object.fromEntries([...held].map((partition) => [String(partition), 1])) }),
          onAssigned: (assignment) => {
            held.clear();
            for (const partition of assignment[topic] ?? []) held.add(partition);
          },
          sessionTimeoutMs: 30_000,
          // A chunk is the batches sent at once, committed together: a crash re-sends at most the batches in flight.
          maxChunkSize: deps.concurrency ?? 8,
          partitionsConsumedConcurrently: SENDER_PARTITIONS_AT_ONCE,
          transactions: transactional(lane.group),
          handle: senderHandler({
            provider,
            clients,
            isCancelled: (id) => controls.isCancelled(id),
            isPaused: (id) => controls.isPaused(id),
            changed: () => controls.changed(),
            // The batches of a notification are spread over the lane's partitions by id: this instance sends its share of the pace.
            pacePerSecond: (batch) => {
              const ratePerMinute = controls.steering(batch.data.notification_id).ratePerMinute ?? batch.data.rate_per_minute;
              return ratePerMinute === undefined ? undefined : (ratePerMinute / 60) * (Math.max(1, held.size) / laneTopicPartitions);
            },
            projectPacer,
            budgetPerSecond: async (projectId) => {
              // The store down: the fan-out's budget still holds; the senders do not wait on the store.
              const budget = await senderBudgets(projectId).catch(() => undefined);
              return budget === undefined ? undefined : budget * (Math.max(1, held.size) / laneTopicPartitions);
            },
            policy,
            clock,
            logger,
            concurrency: deps.concurrency ?? 8,
            lane: laneName,
            gate,
            onThrottled,
            ...(deps.observer === undefined ? {} : { observer: deps.observer }),
          }),
        }),
      );
    }
  }
  return {
    instance: instance.id,
    ready: Promise.all(consumers.map((consumer) => consumer.ready)).then(() => undefined),
    stop: async () => {
      await scheduler?.stop();
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      await Promise.all(producers.map((producer) => producer.disconnect()));
      await follower.close();
      await admin.close();
      await clients.closeAll();
      await instance.close();
    },
  };
}

/** Device-events and fan-out tasks must have as many partitions: task partition p runs where device partition p is indexed. */
async function assertCoPartitioned(admin: Awaited<ReturnType<typeof openLogAdmin>>, kafka: HeraldKafka) {
  const devices = await admin.ends(kafka.topic(TOPICS.deviceEvents));
  const tasks = await admin.ends(kafka.topic(TOPICS.fanoutTasks));
  if (devices.length !== tasks.length) {
    throw new ConfigError([`${TOPICS.fanoutTasks} has ${tasks.length} partitions and ${TOPICS.deviceEvents} ${devices.length}: they must have as many (add partitions to the smaller)`]);
  }
  return devices;
}

function messageIn(event: { type: string; data: unknown }): FanoutMessage {
  const message = event.type === 'FanoutTask' ? (event.data as { message?: FanoutMessage }).message : undefined;
  if (message === undefined) throw new Error('the first step of a fan-out task carries no message');
  return message;
}

/** Zones the project's devices registered: a local-time send makes a slot for each (one read per such send). */
async function registeredZones(readModels: ReadModelRegistry, projectId: string): Promise<string[]> {
  try {
    const devices = await readModels.collection<DeviceDocument>('devices');
    return (await devices.distinct('timezone', { project_id: projectId })).filter((zone): zone is string => typeof zone === 'string');
  } catch (error) {
    throw wrapMongoError(error);
  }
}
