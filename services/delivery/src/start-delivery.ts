import { TOPICS } from '@herald/events';
import { highsByPartition, openLogAdmin, TransactionalProducer, type EventProducer, type HeraldKafka, type RunningConsumer } from '@herald/kafka';
import type { Db } from '@herald/mongo';
import { ConfigError } from '@herald/errors';
import type { Logger } from '@herald/log';
import type { Clock } from '@herald/runtime';
import type { Role } from './config.ts';
import type { SenderObserver } from './sender/sender.ts';
import { ProviderClients, type CredentialSource } from './sender/provider-clients.ts';
import { openInstance } from './index/open-instance.ts';
import { followLog } from './index/follow-log.ts';
import { DeliveryControls } from './control/delivery-controls.ts';
import type { DeliveryRuntime } from './delivery-runtime.ts';
import { startFanout } from './fanout/start-fanout.ts';
import { startSenders } from './sender/start-senders.ts';

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
 * Starts the chosen roles. Every role follows delivery-control (cancels,
 * pauses, push-back); the fanout role (fanout/start-fanout.ts) keeps the
 * audience index of the device-events partitions it holds, takes requests
 * and runs the partition tasks; apns and fcm (sender/start-senders.ts) send
 * in two lanes each. Every consumer that writes commits its output and its
 * offsets in one Kafka transaction.
 */
export async function startDelivery(deps: DeliveryDeps): Promise<RunningDelivery> {
  const { kafka } = deps;
  const admin = await openLogAdmin(kafka);
  const deviceEnds = async () => highsByPartition(await admin.ends(kafka.topic(TOPICS.deviceEvents)));
  const log = { identity: `${await admin.clusterId()}/${kafka.topic(TOPICS.deviceEvents)}`, deviceEnds: await deviceEnds() };
  const instance = await openInstance(deps.indexDir, log, (reason) => deps.logger.warn({ dir: deps.indexDir }, reason));
  const consumers: RunningConsumer[] = [];
  // One transactional producer for every stage of this process: the fan-out's and the senders' commits that come
  // together go in one transaction (a Kafka transaction costs the broker about the same for one group as for six).
  const transactions = new TransactionalProducer(kafka, { transactionalId: `${instance.id}.delivery` });
  await transactions.start();
  const transactional = (group: string) => transactions.forGroup(group);
  const controls = new DeliveryControls();
  const follower = await followLog({ kafka, index: instance.index, controls, logger: deps.logger.child({ component: 'log-follower' }) });
  const partitionCount = (await assertCoPartitioned(admin, kafka)).length;
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
  await follower.ready;

  const runtime: DeliveryRuntime = { kafka, admin, instance, controls, follower, partitionCount, transactional, consumers };
  const scheduler = deps.roles.includes('fanout') ? await startFanout(deps, runtime) : undefined;
  await startSenders(deps, runtime, clients);
  return {
    instance: instance.id,
    ready: Promise.all(consumers.map((consumer) => consumer.ready)).then(() => undefined),
    stop: async () => {
      await scheduler?.stop();
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      await transactions.disconnect();
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
