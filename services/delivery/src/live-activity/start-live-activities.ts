import { TOPICS, type LiveActivityRequestedV1 } from '@herald/events';
import { runConsumer } from '@herald/kafka';
import { DeviceQueries, LiveActivitySendQueries, LiveActivityTokenQueries, ReadModelRegistry, wrapMongoError } from '@herald/mongo';
import type { DeliveryDeps } from '../delivery-deps.ts';
import type { DeliveryRuntime } from '../delivery-runtime.ts';
import type { ProviderClients } from '../sender/provider-clients.ts';
import { liveActivityHandler, type LiveActivityPorts } from './live-activity-handler.ts';
import type { ActivityToken } from './outcomes.ts';

/** Update tokens one activity reaches at most (an activity runs on the devices of one user, a few). */
const TOKENS_PER_ACTIVITY = 64;
/** Devices one external id reaches at most in a start. */
const DEVICES_PER_USER = 100;

/** Store errors as InfrastructureErrors: the runner waits them out instead of dead-lettering the request. */
async function store<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw wrapMongoError(error);
  }
}

/** Its own group on notification-events, reading LiveActivityRequested only (the fan-out passes them over by type). */
export const LIVE_ACTIVITY_CONSUMER = { group: 'herald.live-activities', topics: [TOPICS.notificationEvents] } as const;

const activityToken = (doc: { _id: string; device_id: string; token: string }): ActivityToken => ({ id: doc._id, device_id: doc.device_id, token: doc.token });

/** The apns role's Live Activity consumer (group herald.live-activities), in `runtime.consumers`. */
export async function startLiveActivities(deps: DeliveryDeps, runtime: DeliveryRuntime, clients: ProviderClients): Promise<void> {
  const { ports } = deps;
  const tokens = new LiveActivityTokenQueries(ports.db);
  const sends = new LiveActivitySendQueries(ports.db);
  const devices = new DeviceQueries(new ReadModelRegistry(ports.db));
  const logger = ports.logger.child({ role: 'apns', component: 'live-activities' });

  const targetDevices = async (projectId: string, targets: NonNullable<LiveActivityRequestedV1['data']['targets']>): Promise<string[]> => {
    const ids = new Set<string>();
    for (const target of targets) {
      if ('device_id' in target) ids.add(target.device_id);
      else for (const device of await devices.devicePage(projectId, { external_id: target.external_id, status: 'active' }, { skip: 0, limit: DEVICES_PER_USER })) ids.add(device._id);
    }
    return [...ids];
  };

  const livePorts: LiveActivityPorts = {
    tokensOf: (projectId, request) =>
      store(async () => {
        if (request.event !== 'start') return request.activity_id === undefined ? [] : (await tokens.updateTokensOfActivity(projectId, request.activity_id, TOKENS_PER_ACTIVITY)).map(activityToken);
        if (request.targets === undefined || request.attributes_type === undefined) return [];
        return (await tokens.pushToStartOfDevices(projectId, await targetDevices(projectId, request.targets), request.attributes_type)).map(activityToken);
      }),
    removeToken: (projectId, token) => store(() => tokens.deleteIfToken(projectId, token.id, token.token)),
    removeUpdateTokens: (projectId, activityId) => store(() => tokens.deleteOfActivity(projectId, activityId)),
    report: (projectId, requestId, outcomes, at) => store(() => sends.report(projectId, requestId, outcomes, at)),
    apns: (projectId) => clients.apns(projectId),
  };

  const group = LIVE_ACTIVITY_CONSUMER;
  runtime.consumers.push(
    await runConsumer({
      kafka: runtime.kafka,
      producer: ports.producer,
      groupId: group.group,
      topics: group.topics,
      logger,
      // Everything else on notification-events is passed over undecoded.
      types: new Set(['LiveActivityRequested']),
      sessionTimeoutMs: 30_000,
      // A request is sent, reported and committed before the next: a crash re-sends at most the chunk in flight.
      maxChunkSize: 16,
      transactions: runtime.transactional(group.group),
      handle: liveActivityHandler(livePorts, { maxAgeMs: 60 * 60_000, attempts: 5, backoff: { minMs: 200, maxMs: 5_000 } }, ports.clock, logger),
    }),
  );
}
