import { TOPICS } from '@herald/events';
import { runConsumer, type RunningConsumer } from '@herald/kafka';
import type { Logger } from '@herald/log';
import { DeviceQueries, LiveActivityPacingQueries, LiveActivitySendQueries, LiveActivityTokenQueries, ReadModelRegistry, TopicQueries, wrapMongoError } from '@herald/mongo';
import type { DeliveryDeps } from '../delivery-deps.ts';
import type { DeliveryRuntime } from '../delivery-runtime.ts';
import type { ProviderClients } from '../sender/provider-clients.ts';
import { liveActivityHandler, type LiveActivityPorts } from './live-activity-handler.ts';
import type { ActivityToken } from './outcomes.ts';
import { startTokens } from './start-audience.ts';

/** Update tokens one activity reaches at most (an activity runs on the devices of one user, a few). */
const TOKENS_PER_ACTIVITY = 64;
/** Ended activities' update tokens removed per sweep step (the sweep goes on while steps come back full). */
const SWEEP_STEP = 500;

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
  const readModels = new ReadModelRegistry(ports.db);
  const pacing = new LiveActivityPacingQueries(ports.db);
  const audienceQueries = { devices: new DeviceQueries(readModels), topics: new TopicQueries(readModels), tokens, pacing };
  const logger = ports.logger.child({ role: 'apns', component: 'live-activities' });

  const livePorts: LiveActivityPorts = {
    tokensOf: (projectId, request) =>
      store(async () => {
        if (request.event !== 'start') return request.activity_id === undefined ? [] : (await tokens.updateTokensOfActivity(projectId, request.activity_id, TOKENS_PER_ACTIVITY)).map(activityToken);
        if (request.targets === undefined || request.attributes_type === undefined) return [];
        return (await startTokens(audienceQueries, projectId, request.targets, request.attributes_type)).map(activityToken);
      }),
    removeToken: (projectId, token) => store(() => tokens.deleteIfToken(projectId, token.id, token.token)),
    removeUpdateTokens: (projectId, activityId) => store(() => tokens.deleteOfActivity(projectId, activityId)),
    removeUpdateTokensAt: (projectId, activityId, at) => store(() => pacing.removeUpdateTokensAt(projectId, activityId, at)),
    report: (projectId, requestId, outcomes, at) => store(() => sends.report(projectId, requestId, outcomes, at)),
    reportCoalesced: (projectId, requestId, into, count, at) => store(() => pacing.reportCoalesced(projectId, requestId, into, count, at)),
    newerUpdate: (projectId, activityId, timestamp) =>
      store(async () => {
        const newer = await pacing.newerUpdate(projectId, activityId, timestamp);
        return newer === null ? undefined : { id: newer.id, createdAtMs: newer.created_at.getTime() };
      }),
    lastSentAt: (projectId, activityId) => store(async () => (await pacing.lastSentAt(projectId, activityId))?.getTime()),
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
      handle: liveActivityHandler(livePorts, { maxAgeMs: 60 * 60_000, attempts: 5, backoff: { minMs: 200, maxMs: 5_000 }, updateIntervalMs: deps.config.LIVE_ACTIVITY_UPDATE_INTERVAL_MS }, ports.clock, logger),
    }),
  );
  runtime.consumers.push(sweepEndedActivities(pacing, deps.config.LIVE_ACTIVITY_SWEEP_MS, logger));
}

/**
 * Removes the update tokens of ended activities once their dismissal date
 * passed: every instance sweeps (a removal is idempotent), from the dates in
 * the store, so one that restarts or dies loses nothing. Stopped with the
 * consumers.
 */
function sweepEndedActivities(pacing: LiveActivityPacingQueries, everyMs: number, logger: Logger): RunningConsumer {
  let running: Promise<void> = Promise.resolve();
  const sweep = async () => {
    try {
      while ((await pacing.removeDueUpdateTokens(new Date(), SWEEP_STEP)) === SWEEP_STEP);
    } catch (error) {
      // The store is down: the next sweep tries again.
      logger.warn({ err: error }, 'live activity token sweep failed');
    }
  };
  const timer = setInterval(() => {
    running = running.then(sweep);
  }, everyMs);
  timer.unref();
  running = sweep();
  return {
    ready: Promise.resolve(),
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
