import { setTimeout as sleep } from 'node:timers/promises';
import { DELIVERY_CONSUMERS, TOPICS } from '@herald/events';
import { runConsumer, topicEnds, type EventProducer, type HeraldKafka, type RunningConsumer } from '@herald/kafka';
import { ReadModelRegistry, storeFlavour, wrapMongoError, type Db } from '@herald/mongo';
import type { Logger } from '@herald/log';
import type { Role } from './config.ts';
import { fanoutHandler } from './fanout/fanout.ts';
import { FanoutProgressStore } from './fanout/progress.ts';
import { keysetAudienceSource, StorageOrderAudienceSource, type AudienceSource } from './fanout/audience-source.ts';
import { SmallAudienceSource } from './fanout/small-audience-source.ts';
import { CancellationStore } from './cancellations.ts';
import { senderHandler, type SenderObserver } from './sender/sender.ts';
import { ProviderClients, type CredentialSource } from './sender/provider-clients.ts';
import type { RetryPolicy } from './sender/deliver-with-retry.ts';
import { BatchAttemptStore } from './sender/batch-attempts.ts';
import { AdminStore } from '@herald/admin';
import { systemClock, type Clock } from '@herald/runtime';
import { ScheduleStore } from './schedule/schedule-store.ts';
import { startScheduler } from './schedule/scheduler.ts';

export interface DeliveryDeps {
  kafka: HeraldKafka;
  producer: EventProducer;
  db: Db;
  logger: Logger;
  roles: readonly Role[];
  credentials: CredentialSource;
  apnsEndpoint?: string | undefined;
  fcmEndpoint?: string | undefined;
  /** Extra trusted CA for in-process tests; processes use NODE_EXTRA_CA_CERTS. */
  ca?: string | undefined;
  retryDeadlineMs?: number;
  /** Notifications requested longer ago than this are not sent (a consumer group reset must not replay old campaigns). */
  maxAgeMs?: number;
  /** Audience devices per fan-out step (see fanout/fanout.ts). */
  fanoutStepDevices?: number;
  /** Partitions of the fan-out's topics worked on at once. */
  fanoutConcurrency?: number;
  concurrency?: number;
  /** Attempts per batch before its open devices are reported failed (AttemptsExhausted). */
  maxAttempts?: number;
  apnsMaxInFlight?: number;
  apnsRequestTimeoutMs?: number;
  fcmMaxConcurrentChunks?: number;
  observer?: SenderObserver;
  /** Schedule decisions; tests move it (HERALD_CLOCK_FILE). Default: the system clock. */
  scheduleClock?: Clock;
  /** How often the scheduler looks for due sends. */
  schedulerPollMs?: number;
}

export interface RunningDelivery {
  ready: Promise<void>;
  stop(): Promise<void>;
}


/** Starts the chosen roles, each its own consumer group so each scales with partitions on its own. */
export async function startDelivery(deps: DeliveryDeps): Promise<RunningDelivery> {
  const consumers: RunningConsumer[] = [];
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
  const policy: RetryPolicy = { deadlineMs: deps.retryDeadlineMs ?? 30_000, baseDelayMs: 200, maxDelayMs: 10_000 };
  const clock = { now: () => Date.now(), sleep: (ms: number) => sleep(ms).then(() => undefined), random: Math.random };
  const batches = new BatchAttemptStore(deps.db);
  const cancellations = new CancellationStore(deps.db);
  const schedules = new ScheduleStore(deps.db);
  const admin = new AdminStore(deps.db);
  const scheduleClock = deps.scheduleClock ?? systemClock;
  let scheduler: { stop(): Promise<void> } | undefined;
  let audience: AudienceSource | undefined;

  if (deps.roles.includes('fanout')) {
    const logger = deps.logger.child({ role: 'fanout' });
    audience = await audienceSourceFor(deps.db, deps.kafka, logger);
    const handle = fanoutHandler({
      producer: deps.producer,
      readModels: new ReadModelRegistry(deps.db),
      audience,
      progress: new FanoutProgressStore(deps.db),
      cancellations,
      schedules,
      defaultTimezone: async (projectId) => (await admin.findProject(projectId))?.default_timezone,
      clock: scheduleClock,
      logger,
      maxAgeMs: deps.maxAgeMs ?? 24 * 60 * 60 * 1000,
      ...(deps.fanoutStepDevices === undefined ? {} : { stepDevices: deps.fanoutStepDevices }),
    });
    // Requests and continuations: one handler, two groups (see DELIVERY_CONSUMERS), so step 0 never waits for a campaign's step.
    for (const group of [DELIVERY_CONSUMERS.fanout, DELIVERY_CONSUMERS.fanoutSteps]) {
      consumers.push(
        await runConsumer({
          kafka: deps.kafka,
          producer: deps.producer,
          groupId: group.group,
          topics: group.topics,
          logger,
          sessionTimeoutMs: 30_000,
          // Each record is at most one bounded step; commit often so a restart redoes little.
          maxChunkSize: 8,
          // A small send on one partition never waits for a campaign step on another.
          partitionsConsumedConcurrently: deps.fanoutConcurrency ?? 4,
          handle,
        }),
      );
    }
    // Every fan-out instance polls; a lease on each schedule makes one of them fire it.
    scheduler = startScheduler({ schedules, cancellations, producer: deps.producer, clock: scheduleClock, logger: logger.child({ component: 'scheduler' }), ...(deps.schedulerPollMs === undefined ? {} : { pollMs: deps.schedulerPollMs }) });
  }
  for (const provider of ['apns', 'fcm'] as const) {
    if (!deps.roles.includes(provider)) continue;
    const logger = deps.logger.child({ role: provider });
    // The campaign lane and the express lane (small sends), each with its own group and send slots.
    for (const lane of [DELIVERY_CONSUMERS[provider], DELIVERY_CONSUMERS[`${provider}Express`]]) {
      consumers.push(
        await runConsumer({
          kafka: deps.kafka,
          producer: deps.producer,
          groupId: lane.group,
          topics: lane.topics,
          logger,
          sessionTimeoutMs: 30_000,
          // A chunk of batches is sent concurrently; keep it small enough to finish well within the session.
          maxChunkSize: 32,
          partitionsConsumedConcurrently: 3,
          handle: senderHandler({ provider, clients, producer: deps.producer, batches, cancellations, maxAttempts: deps.maxAttempts ?? 5, policy, clock, logger, concurrency: deps.concurrency ?? 8, ...(deps.observer === undefined ? {} : { observer: deps.observer }) }),
        }),
      );
    }
  }
  return {
    ready: Promise.all(consumers.map((consumer) => consumer.ready)).then(() => undefined),
    stop: async () => {
      await scheduler?.stop();
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      await audience?.close();
      await clients.closeAll();
    },
  };
}

/**
 * Keyset pages where the store has real indexes. On FerretDB 1.x, which
 * sorts in memory and indexes only `_id`: small audiences by `_id` lookups,
 * the rest by one held scan per fan-out (small-audience-source.ts, audience-source.ts).
 */
async function audienceSourceFor(db: Db, kafka: HeraldKafka, logger: Logger): Promise<AudienceSource> {
  const flavour = await storeFlavour(db).catch((error: unknown) => {
    throw wrapMongoError(error);
  });
  logger.info({ store: flavour, audience_reads: flavour === 'ferretdb' ? 'small audiences by _id lookups, others by a storage-order scan' : 'keyset pages' }, 'fan-out reads audiences');
  if (flavour !== 'ferretdb') return keysetAudienceSource();
  return new SmallAudienceSource(new StorageOrderAudienceSource({ logger }), { deviceEventPartitions: partitionCountOf(kafka, TOPICS.deviceEvents), logger });
}

/** A topic's partition count, asked again at most once a minute (partitions are added rarely, and only ever added). */
function partitionCountOf(kafka: HeraldKafka, topic: string): () => Promise<number> {
  let known: { count: number; at: number } | undefined;
  return async () => {
    if (known === undefined || Date.now() - known.at > 60_000) known = { count: (await topicEnds(kafka, topic)).length, at: Date.now() };
    return known.count;
  };
}
