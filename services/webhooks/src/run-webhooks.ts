import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { openLogAdmin, type HeraldKafka, type LogAdmin, type LogPosition } from '@herald/kafka';
import { positionOf, storedOffsets, WebhookStore, type WebhookDocument } from '@herald/admin';
import type { Store } from '@herald/mongo';
import type { Logger } from '@herald/log';
import type { Metrics } from '@herald/metrics';
import { systemClock } from '@herald/runtime';
import type { RetryPolicy } from './backoff.ts';
import { runEndpoint, type RunningEndpoint, type WebhookClock } from './endpoint-runner.ts';
import { postWebhook, systemConnector, systemResolver, type Connector, type OutboundOptions, type Resolver } from './outbound.ts';
import { WEBHOOK_TOPICS } from './select-events.ts';

export interface WebhooksDeps {
  kafka: HeraldKafka;
  db: Store;
  logger: Logger;
  metrics: Pick<Metrics, 'webhookLag' | 'webhookEvents' | 'webhookFailures' | 'webhookDeadLetters' | 'webhookLastFailure'>;
  policy: RetryPolicy;
  outbound: Omit<OutboundOptions, 'resolver' | 'connector'> & { resolver?: Resolver; connector?: Connector };
  /** How often registrations are read again (new, changed, deleted, replayed webhooks) and lag measured. */
  refreshMs: number;
  clock?: WebhookClock;
}

export interface RunningWebhooks {
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The webhooks service: every `refreshMs` it reads the registrations,
 * takes a lease on each (so two webhooks processes never run one webhook),
 * runs one log reader per webhook it holds (runEndpoint), restarts one whose
 * generation moved (a replay: the new position is resolved here, from a time
 * or a position), stops those deleted or paused (a paused one keeps its
 * stored position and starts from it when resumed), and measures lag. With no webhooks it
 * holds no reader and no Kafka connection: an idle stack pays one small
 * query per refresh.
 */
export async function runWebhooks(deps: WebhooksDeps): Promise<RunningWebhooks> {
  const store = new WebhookStore(deps.db);
  const clock = deps.clock ?? systemClock;
  const owner = randomUUID();
  const logger = deps.logger.child({ component: 'webhooks' });
  const outbound: OutboundOptions = { resolver: systemResolver, connector: systemConnector, ...deps.outbound };
  const running = new Map<string, RunningEndpoint>();
  const latest = new Map<string, WebhookDocument>();
  const leaseMs = Math.max(15_000, deps.refreshMs * 5);
  let stopped = false;

  const observer = {
    delivered: (id: string, events: number) => deps.metrics.webhookEvents.inc({ webhook_id: id }, events),
    failed: (id: string, atMs: number) => {
      deps.metrics.webhookFailures.inc({ webhook_id: id });
      deps.metrics.webhookLastFailure.set({ webhook_id: id }, atMs / 1000);
    },
    deadLettered: (id: string) => deps.metrics.webhookDeadLetters.inc({ webhook_id: id }),
  };

  /** Where a webhook (re)starts: its replay, resolved, else its stored position, else its creation time. */
  const startOf = async (webhook: WebhookDocument): Promise<LogPosition> => {
    if (webhook.replay?.position !== undefined) return positionOf(webhook.replay.position);
    if (webhook.replay === null && webhook.position !== null) return positionOf(webhook.position);
    const time = webhook.replay?.from_time ?? webhook.created_at;
    const admin = await openLogAdmin(deps.kafka);
    try {
      const position: LogPosition = {};
      for (const topic of WEBHOOK_TOPICS) position[topic] = Object.fromEntries(await admin.offsetsAt(deps.kafka.topic(topic), time.getTime()));
      return position;
    } finally {
      await admin.close().catch(() => undefined);
    }
  };

  const stopOne = async (id: string) => {
    const endpoint = running.get(id);
    running.delete(id);
    await endpoint?.stop().catch((error: unknown) => logger.warn({ err: error, webhook_id: id }, 'webhook reader did not close cleanly'));
  };

  const start = async (webhook: WebhookDocument) => {
    const from = await startOf(webhook);
    // Record where it starts (and that the replay is taken) before delivering anything.
    if (!(await store.progress(webhook._id, webhook.generation, { position: storedOffsets(from), replay: null }))) return;
    latest.set(webhook._id, { ...webhook, replay: null });
    const endpoint = await runEndpoint(
      {
        kafka: deps.kafka,
        store,
        current: () => latest.get(webhook._id) ?? webhook,
        post: (url, body, headers) => postWebhook(url, body, headers, outbound),
        policy: deps.policy,
        clock,
        logger,
        observer,
      },
      from,
      webhook.generation,
    );
    running.set(webhook._id, endpoint);
    logger.info({ webhook_id: webhook._id, generation: webhook.generation }, 'webhook started');
  };

  // One admin connection while webhooks run (lag every refresh), none while there are none.
  let lagAdmin: LogAdmin | undefined;
  const closeLagAdmin = async () => {
    await lagAdmin?.close().catch(() => undefined);
    lagAdmin = undefined;
  };
  const measureLag = async () => {
    if (running.size === 0) return closeLagAdmin();
    const admin = (lagAdmin ??= await openLogAdmin(deps.kafka));
    try {
      const ends: LogPosition = {};
      for (const topic of WEBHOOK_TOPICS) ends[topic] = Object.fromEntries((await admin.ends(deps.kafka.topic(topic))).map((end) => [end.partition, end.high]));
      for (const [id, endpoint] of running) {
        const position = endpoint.position();
        let lag = 0;
        for (const [topic, partitions] of Object.entries(ends)) for (const [partition, high] of Object.entries(partitions)) lag += Math.max(0, high - (position[topic]?.[Number(partition)] ?? 0));
        deps.metrics.webhookLag.set({ webhook_id: id }, lag);
        await store.setLag(id, lag);
      }
    } catch (error) {
      await closeLagAdmin();
      throw error;
    }
  };

  const refresh = async () => {
    const now = new Date(clock.now());
    const webhooks = await store.all();
    const present = new Set(webhooks.map((webhook) => webhook._id));
    for (const id of [...running.keys()]) {
      if (present.has(id)) continue;
      await stopOne(id);
      latest.delete(id);
      for (const metric of [deps.metrics.webhookLag, deps.metrics.webhookEvents, deps.metrics.webhookFailures, deps.metrics.webhookDeadLetters, deps.metrics.webhookLastFailure]) metric.remove({ webhook_id: id });
      logger.info({ webhook_id: id }, 'webhook deleted: stopped');
    }
    for (const webhook of webhooks) {
      if (stopped) return;
      if (webhook.paused === true) {
        // Stopping saves the position it reached: resumed, it starts from there (what it missed while paused comes then).
        if (running.has(webhook._id)) {
          await stopOne(webhook._id);
          await store.release(webhook._id, owner).catch(() => undefined);
          logger.info({ webhook_id: webhook._id }, 'webhook paused: stopped');
        }
        continue;
      }
      const held = await store.lease(webhook._id, owner, now, new Date(now.getTime() + leaseMs));
      const endpoint = running.get(webhook._id);
      if (!held) {
        if (endpoint !== undefined) await stopOne(webhook._id);
        continue;
      }
      latest.set(webhook._id, endpoint === undefined ? webhook : { ...webhook, replay: null });
      if (endpoint !== undefined && endpoint.generation === webhook.generation) continue;
      if (endpoint !== undefined) await stopOne(webhook._id);
      await start(webhook);
    }
    await measureLag();
  };

  // Stopping ends the wait between two refreshes at once: a stop never waits out `refreshMs`.
  const stopping = new AbortController();
  let loop: Promise<void> = Promise.resolve();
  const first = refresh().catch((error: unknown) => logger.error({ err: error }, 'webhooks: first refresh failed (retried)'));
  loop = (async () => {
    await first;
    while (!stopped) {
      await sleep(deps.refreshMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      if (stopped) break;
      await refresh().catch((error: unknown) => logger.error({ err: error }, 'webhooks: refresh failed (retried)'));
    }
  })();
  return {
    ready: first,
    async stop() {
      stopped = true;
      stopping.abort();
      await loop;
      await Promise.all(
        [...running.keys()].map(async (id) => {
          await stopOne(id);
          await store.release(id, owner).catch(() => undefined);
        }),
      );
      await closeLagAdmin();
    },
  };
}
