import type { EventProducer, HeraldKafka } from '@herald/kafka';
import type { Db } from '@herald/mongo';
import type { Logger } from '@herald/log';
import type { Clock } from '@herald/runtime';
import type { Role } from './config.ts';
import type { SenderObserver } from './sender/sender.ts';
import type { CredentialSource } from './sender/provider-clients.ts';

// What startDelivery (start-delivery.ts) is given and returns, in a module of their own: the roles it starts
// (fanout/start-fanout.ts, sender/start-senders.ts) read the same deps, and importing them from start-delivery.ts
// would make an import cycle.

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
