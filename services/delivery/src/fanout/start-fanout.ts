import { DELIVERY_CONSUMERS, TOPICS, type FanoutMessageV2 } from '@herald/events';
import { coPartitionAssigner, highsByPartition, partitionForKey, readRecordAt, runConsumer } from '@herald/kafka';
import { DeviceQueries, NotificationQueries, ReadModelRegistry, wrapMongoError, ScheduleStore } from '@herald/mongo';
import { AdminStore } from '@herald/admin';
import type { DeliveryDeps } from '../delivery-deps.ts';
import type { DeliveryRuntime } from '../delivery-runtime.ts';
import { startScheduler } from '../schedule/scheduler.ts';
import { fanoutRoles, runAudienceIndex } from '../index/run-index.ts';
import { ProjectBudgets } from '../control/project-budgets.ts';
import { projectSetting } from '../control/project-setting.ts';
import { CapStore } from '../control/cap-store.ts';
import { projectCaps, releasedBatch } from '../control/project-caps.ts';
import { sharedNextCall } from './shared-next-call.ts';
import { coordinatorHandler, COORDINATOR_TYPES } from './coordinator.ts';
import { taskHandler } from './task-runner.ts';

/**
 * The fanout role: keeps the audience index of the device-events partitions
 * this instance holds, runs their partition tasks (group
 * herald.fanout-partitions, co-partitioned with the index), takes requests
 * (group herald.fanout) and announces scheduled sends. Returns the
 * scheduler to stop; the consumers go to `runtime.consumers`.
 */
export async function startFanout(deps: DeliveryDeps, runtime: DeliveryRuntime): Promise<{ stop(): Promise<void> }> {
  const { kafka } = runtime;
  const { config, ports } = deps;
  const maxAgeMs = config.DELIVERY_MAX_AGE_MS;
  const deviceEnds = async () => highsByPartition(await runtime.admin.ends(kafka.topic(TOPICS.deviceEvents)));
  const logger = ports.logger.child({ role: 'fanout' });
  const schedules = new ScheduleStore(ports.db);
  const admins = new AdminStore(ports.db);
  const readModels = new ReadModelRegistry(ports.db);
  const index = await runAudienceIndex({ kafka, producer: ports.producer, index: runtime.instance.index, instance: runtime.instance.id, logger: logger.child({ component: 'audience-index' }), ...(ports.onIndexApplied === undefined ? {} : { onApplied: ports.onIndexApplied }) });
  runtime.consumers.push(index.consumer);
  const partitions = DELIVERY_CONSUMERS.fanoutPartitions;
  const budgets = new ProjectBudgets({ budgetOf: projectSetting(admins, (project) => project.budget_per_second), throttledUntil: (id) => runtime.controls.throttledUntil(id), partitions: runtime.partitionCount });
  runtime.consumers.push(
    await runConsumer({
      kafka,
      producer: ports.producer,
      groupId: partitions.group,
      topics: partitions.topics,
      logger,
      sessionTimeoutMs: 30_000,
      maxChunkSize: 32,
      partitionsConsumedConcurrently: config.DELIVERY_FANOUT_CONCURRENCY,
      types: new Set(['FanoutTask']),
      assigner: coPartitionAssigner({ instance: runtime.instance.id, role: 'tasks', roles: fanoutRoles(kafka) }),
      onAssigned: (assignment) => budgets.retain(new Set(assignment[TOPICS.fanoutTasks] ?? [])),
      transactions: runtime.transactional(partitions.group),
      handle: taskHandler({
        index: runtime.instance.index,
        waitFor: index.waitFor,
        isCancelled: (id) => runtime.controls.isCancelled(id),
        steering: (id) => runtime.controls.steering(id),
        changed: () => runtime.controls.changed(),
        budgets,
        deviceEnds,
        loadMessage: async (partition, offset) => messageIn(await readRecordAt(kafka, TOPICS.fanoutTasks, partition, offset)),
        partitionOf: (deviceId) => partitionForKey(deviceId, runtime.partitionCount),
        logger,
        maxAgeMs,
        stepDevices: config.DELIVERY_FANOUT_STEP_DEVICES,
        caps: { state: new CapStore(ports.db), schedules, now: () => ports.clock.now() },
      }),
    }),
  );
  runtime.consumers.push(
    await runConsumer({
      kafka,
      producer: ports.producer,
      groupId: DELIVERY_CONSUMERS.fanout.group,
      topics: DELIVERY_CONSUMERS.fanout.topics,
      logger,
      sessionTimeoutMs: 30_000,
      maxChunkSize: 500,
      partitionsConsumedConcurrently: 64,
      types: COORDINATOR_TYPES,
      transactions: runtime.transactional(DELIVERY_CONSUMERS.fanout.group),
      handle: coordinatorHandler({
        schedules,
        controls: runtime.controls,
        ends: sharedNextCall(async () => {
          const [devices, topics] = await Promise.all([runtime.admin.ends(kafka.topic(TOPICS.deviceEvents)), runtime.admin.ends(kafka.topic(TOPICS.topicEvents))]);
          return { devices, topics };
        }),
        waitForTopics: runtime.follower.waitForTopics,
        topicOf: (projectId, idOrName) => runtime.instance.index.topicOf(projectId, idOrName),
        partitionOf: partitionForKey,
        registeredZones: (projectId) => registeredZones(readModels, projectId),
        defaultTimezone: async (projectId) => (await admins.findProject(projectId))?.default_timezone,
        projectRate: projectSetting(admins, (project) => project.default_rate_per_minute),
        projectCaps: projectCaps(admins),
        releases: { batchOf: async (id) => releasedBatch(await schedules.released(id)) },
        variantCounts: async (projectId, id) => (await new NotificationQueries(readModels).notification(projectId, id))?.by_variant,
        clock: ports.clock,
        maxAgeMs,
        logger,
      }),
    }),
  );
  // Every fan-out instance looks (at the next due time, when it holds a send, and every schedulerIdleMs); a lease on each schedule makes one of them announce it.
  return startScheduler({
    schedules,
    producer: ports.producer,
    clock: ports.clock,
    logger: logger.child({ component: 'scheduler' }),
    maxAgeMs,
    pollMs: config.DELIVERY_SCHEDULER_POLL_MS,
    idleMs: config.DELIVERY_SCHEDULER_IDLE_MS,
  });
}

function messageIn(event: { type: string; data: unknown }): FanoutMessageV2 {
  const message = event.type === 'FanoutTask' ? (event.data as { message?: FanoutMessageV2 }).message : undefined;
  if (message === undefined) throw new Error('the first step of a fan-out task carries no message');
  return message;
}

/** Zones the project's devices registered: a local-time send makes a slot for each (one read per such send). */
async function registeredZones(readModels: ReadModelRegistry, projectId: string): Promise<string[]> {
  try {
    return await new DeviceQueries(readModels).registeredZones(projectId);
  } catch (error) {
    throw wrapMongoError(error);
  }
}
