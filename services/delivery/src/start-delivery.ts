import { TOPICS } from '@herald/events';
import { highsByPartition, openLogAdmin, TransactionalProducer, type HeraldKafka, type RunningConsumer } from '@herald/kafka';
import { ConfigError } from '@herald/errors';
import { ProviderClients } from './sender/provider-clients.ts';
import type { DeliveryDeps, RunningDelivery } from './delivery-deps.ts';
import { rolesOf } from './config.ts';
import { openInstance } from './index/open-instance.ts';
import { followLog } from './index/follow-log.ts';
import { DeliveryControls } from './control/delivery-controls.ts';
import type { DeliveryRuntime } from './delivery-runtime.ts';
import { startFanout } from './fanout/start-fanout.ts';
import { startSenders } from './sender/start-senders.ts';
import { startLiveActivities } from './live-activity/start-live-activities.ts';

export type { DeliveryDeps, RunningDelivery } from './delivery-deps.ts';

/**
 * Starts the chosen roles. Every role follows delivery-control (cancels,
 * pauses, push-back); the fanout role (fanout/start-fanout.ts) keeps the
 * audience index of the device-events partitions it holds, takes requests
 * and runs the partition tasks; apns and fcm (sender/start-senders.ts) send
 * in two lanes each. Every consumer that writes commits its output and its
 * offsets in one Kafka transaction.
 */
export async function startDelivery(deps: DeliveryDeps): Promise<RunningDelivery> {
  const { config, ports } = deps;
  const { kafka } = ports;
  const admin = await openLogAdmin(kafka);
  const deviceEnds = async () => highsByPartition(await admin.ends(kafka.topic(TOPICS.deviceEvents)));
  const log = { identity: `${await admin.clusterId()}/${kafka.topic(TOPICS.deviceEvents)}`, deviceEnds: await deviceEnds() };
  const instance = await openInstance(config.DELIVERY_INDEX_DIR, log, (reason) => ports.logger.warn({ dir: config.DELIVERY_INDEX_DIR }, reason));
  const consumers: RunningConsumer[] = [];
  // One transactional producer for every stage of this process: the fan-out's and the senders' commits that come
  // together go in one transaction (a Kafka transaction costs the broker about the same for one group as for six).
  const transactions = new TransactionalProducer(kafka, { transactionalId: `${instance.id}.delivery` });
  await transactions.start();
  const transactional = (group: string) => transactions.forGroup(group);
  const controls = new DeliveryControls();
  const follower = await followLog({ kafka, index: instance.index, controls, logger: ports.logger.child({ component: 'log-follower' }) });
  const partitionCount = (await assertCoPartitioned(admin, kafka)).length;
  const clients = new ProviderClients({
    credentials: ports.credentials,
    logger: ports.logger.child({ component: 'provider-clients' }),
    apnsEndpoint: config.APNS_ENDPOINT,
    fcmEndpoint: config.FCM_ENDPOINT,
    ca: ports.ca,
    apnsMaxInFlight: config.APNS_MAX_IN_FLIGHT,
    apnsRequestTimeoutMs: config.APNS_REQUEST_TIMEOUT_MS,
    fcmMaxConcurrentChunks: config.FCM_MAX_CONCURRENT_CHUNKS,
    webpush: { maxInFlight: config.WEBPUSH_MAX_IN_FLIGHT, timeoutMs: config.WEBPUSH_REQUEST_TIMEOUT_MS, allowLoopback: config.WEBPUSH_LOCAL === 'on' },
    hms: { endpoint: config.HMS_ENDPOINT, tokenEndpoint: config.HMS_TOKEN_ENDPOINT, maxInFlight: config.HMS_MAX_IN_FLIGHT, timeoutMs: config.HMS_REQUEST_TIMEOUT_MS },
  });
  await follower.ready;

  const runtime: DeliveryRuntime = { kafka, admin, instance, controls, follower, partitionCount, transactional, consumers };
  const scheduler = rolesOf(config.DELIVERY_ROLES).includes('fanout') ? await startFanout(deps, runtime) : undefined;
  await startSenders(deps, runtime, clients);
  // Live Activity pushes go with the apns role, on its connections (live-activity/start-live-activities.ts).
  if (rolesOf(config.DELIVERY_ROLES).includes('apns')) await startLiveActivities(deps, runtime, clients);
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
