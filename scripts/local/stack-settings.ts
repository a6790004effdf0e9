import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export type ServiceName = 'api' | 'projector' | 'delivery' | 'webhooks';

export interface StackSettings {
  /** Local state: Kafka and store data, the demo key, HERALD_SECRET_KEY, the fake providers' keys. */
  stateDir: string;
  infraPorts: { kafkaPort: number; kafkaControllerPort: number; mongoPort: number };
  /** Brokers of the local Kafka (HERALD_KAFKA_BROKERS_LOCAL; 3: a KRaft cluster, docs/operations/cluster.md). */
  kafkaBrokers: number;
  metricsPorts: Record<ServiceName, number>;
}

const DEFAULTS = { KAFKA_PORT: 9092, KAFKA_CONTROLLER_PORT: 9093, FERRETDB_PORT: 27017, API_METRICS_PORT: 9100, PROJECTOR_METRICS_PORT: 9101, DELIVERY_METRICS_PORT: 9102, WEBHOOKS_METRICS_PORT: 9103 } as const;

/**
 * What `npm start` takes from its environment (pure), so two stacks can run
 * on one machine: the state directory (HERALD_STATE_DIR), the local
 * infrastructure's ports (KAFKA_PORT, KAFKA_CONTROLLER_PORT, FERRETDB_PORT),
 * how many Kafka brokers it runs (HERALD_KAFKA_BROKERS_LOCAL, 1-9) and each service's metrics port (API_/PROJECTOR_/DELIVERY_/WEBHOOKS_METRICS_PORT;
 * one METRICS_PORT cannot serve four processes). Returns the problems when a
 * value is not a port.
 */
export function stackSettings(env: Readonly<Record<string, string | undefined>>, defaultStateDir: string): StackSettings | { problems: string[] } {
  const problems: string[] = [];
  const port = (name: keyof typeof DEFAULTS): number => {
    const value = env[name];
    if (value === undefined || value === '') return DEFAULTS[name];
    if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535) problems.push(`${name} must be a port number (1-65535), not ${value}`);
    return Number(value);
  };
  const brokers = env.HERALD_KAFKA_BROKERS_LOCAL;
  if (brokers !== undefined && brokers !== '' && !/^[1-9]$/.test(brokers)) problems.push(`HERALD_KAFKA_BROKERS_LOCAL must be a number of brokers from 1 to 9, not ${brokers}`);
  const settings: StackSettings = {
    stateDir: env.HERALD_STATE_DIR === undefined || env.HERALD_STATE_DIR === '' ? defaultStateDir : env.HERALD_STATE_DIR,
    infraPorts: { kafkaPort: port('KAFKA_PORT'), kafkaControllerPort: port('KAFKA_CONTROLLER_PORT'), mongoPort: port('FERRETDB_PORT') },
    kafkaBrokers: brokers === undefined || brokers === '' ? 1 : Number(brokers),
    metricsPorts: { api: port('API_METRICS_PORT'), projector: port('PROJECTOR_METRICS_PORT'), delivery: port('DELIVERY_METRICS_PORT'), webhooks: port('WEBHOOKS_METRICS_PORT') },
  };
  return problems.length > 0 ? { problems } : settings;
}

/** Only the processes that decrypt provider credentials (delivery's senders) get HERALD_SECRET_KEY: never the internet-facing API. */
const NEEDS_SECRET_KEY: Record<ServiceName, boolean> = { api: false, projector: false, delivery: true, webhooks: false };

/** One service's environment: the shared one, its own metrics port, and the secret key only where it is needed (pure). */
export function serviceEnv(shared: Readonly<Record<string, string | undefined>>, service: ServiceName, settings: StackSettings): Record<string, string | undefined> {
  const { HERALD_SECRET_KEY: secretKey, ...rest } = shared;
  return { ...rest, METRICS_PORT: String(settings.metricsPorts[service]), ...(NEEDS_SECRET_KEY[service] && secretKey !== undefined ? { HERALD_SECRET_KEY: secretKey } : {}) };
}

/**
 * Makes everything under `dir` readable by its owner only (directories 0700,
 * files lose group and other bits): the store's files and Kafka's segments
 * hold device tokens and device-auth secrets. Together with a 077 umask for
 * what is created afterwards. Symbolic links are left alone.
 */
export async function restrictToOwner(dir: string): Promise<void> {
  const info = await lstat(dir).catch(() => undefined);
  if (info === undefined || info.isSymbolicLink()) return;
  if (info.isDirectory()) {
    await chmod(dir, 0o700);
    for (const entry of await readdir(dir)) await restrictToOwner(join(dir, entry));
  } else await chmod(dir, info.mode & 0o700);
}
