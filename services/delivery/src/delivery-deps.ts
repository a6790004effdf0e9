import type { EventProducer, HeraldKafka } from '@herald/kafka';
import type { Store } from '@herald/mongo';
import type { Logger } from '@herald/log';
import type { Clock } from '@herald/runtime';
import type { Static } from 'typebox';
import type { DeliveryConfig } from './config.ts';
import type { SenderObserver } from './sender/sender.ts';
import type { CredentialSource } from './sender/provider-clients.ts';

// What startDelivery (start-delivery.ts) is given and returns, in a module of their own: the roles it starts
// (fanout/start-fanout.ts, sender/start-senders.ts) read the same deps, and importing them from start-delivery.ts
// would make an import cycle.

/** The loaded configuration, whole and frozen (loadConfig): every setting a role reads comes from here. */
export type DeliverySettings = Readonly<Static<typeof DeliveryConfig>>;

/** What delivery talks to, and what it reports to: connections, stores, the logger, the clock. */
export interface DeliveryPorts {
  kafka: HeraldKafka;
  producer: EventProducer;
  db: Store;
  logger: Logger;
  credentials: CredentialSource;
  /** Schedule decisions; tests move it (HERALD_CLOCK_FILE). */
  clock: Clock;
  /** Extra trusted CA for in-process tests; processes use NODE_EXTRA_CA_CERTS. */
  ca?: string | undefined;
  observer?: SenderObserver;
  /** Progress of the audience index, per device-events partition (metrics). */
  onIndexApplied?: (partition: number, next: number, records: number) => void;
}

export interface DeliveryDeps {
  config: DeliverySettings;
  ports: DeliveryPorts;
}

export interface RunningDelivery {
  ready: Promise<void>;
  /** This process's id in the fan-out group (stable for its index directory). */
  instance: string;
  stop(): Promise<void>;
}
