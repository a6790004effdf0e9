import { TOPICS } from '@herald/events';
import { highsByPartition, openLogAdmin, TransactionalProducer, type HeraldKafka, type RunningConsumer } from '@herald/kafka';
import { ConfigError } from '@herald/errors';
import { ProviderClients } from './sender/provider-clients.ts';
import type { DeliveryDeps, RunningDelivery } from './delivery-deps.ts';
import { openInstance } from './index/open-instance.ts';
import { followLog } from './index/follow-log.ts';
import { DeliveryControls } from './control/delivery-controls.ts';
import type { DeliveryRuntime } from './delivery-runtime.ts';
import { startFanout } from './fanout/start-fanout.ts';
import { startSenders } from './sender/start-senders.ts';

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
