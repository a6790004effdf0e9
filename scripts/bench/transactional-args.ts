import { parseArgs } from 'node:util';

export interface TransactionalArgs {
  /** Devices registered, and one-device notifications sent (one per device). */
  sends: number;
  /** Closed loop: requests in flight (ignored with `rate`). */
  concurrency: number;
  /** Open loop: requests started per second, whatever the answers take; undefined = closed loop. */
  rate: number | undefined;
  /** Notifications stored (through Kafka) before the devices are registered. */
  stored: number;
  partitions: number;
  latencyMs: number;
  timeoutS: number;
  json: boolean;
  keep: boolean;
}

export const TRANSACTIONAL_USAGE = `usage: npm run bench:transactional -- [options]
  --sends N         devices registered (half iOS, half Android) and one-device sends, one per device (default 10000)
  --concurrency C   closed loop: POSTs in flight (default 32)
  --rate R          open loop instead: R POSTs started per second, answers or not (at most 1024 in flight)
  --stored S        first store S notifications (through Kafka, with a delivery report each) (default 0)
  --partitions N    KAFKA_PARTITIONS for the run's topics (default 6)
  --latency-ms MS   latency the fake APNs/FCM add to every answer (default 0)
  --timeout-s S     bound on the whole run (default 240 + N/20 + S/200)
  --json            print one JSON summary object as the last line of stdout
  --keep            leave data (temp dir, or database + topics on external infra)
Exit 0 only when every send was delivered exactly once, every notification's counts equal
the ledger and nothing was dead-lettered. Uses KAFKA_BROKERS / MONGO_URL when set.`;

function number(value: string | undefined, name: string, fallback: number, check: (n: number) => boolean): number {
  if (value === undefined) return fallback;
  const parsed = Number(value.replace(/_/g, ''));
  if (!Number.isFinite(parsed) || !check(parsed)) throw new Error(`--${name}: invalid value '${value}'\n${TRANSACTIONAL_USAGE}`);
  return parsed;
}

/** Bounded in time whatever happens: start-up and judging, the sends at a slow 20/s, the seed at 200/s. */
export function defaultTransactionalTimeoutS(sends: number, stored: number): number {
  return Math.ceil(240 + sends / 20 + stored / 200);
}

/** Parses the options (pure); `help` asks the caller to print the usage. */
export function parseTransactionalArgs(argv: readonly string[]): TransactionalArgs & { help: boolean } {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      sends: { type: 'string' },
      concurrency: { type: 'string' },
      rate: { type: 'string' },
      stored: { type: 'string' },
      partitions: { type: 'string' },
      'latency-ms': { type: 'string' },
      'timeout-s': { type: 'string' },
      json: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const integer = (min: number, max: number) => (n: number) => Number.isInteger(n) && n >= min && n <= max;
  const sends = number(values.sends, 'sends', 10_000, integer(1, 1_000_000));
  const stored = number(values.stored, 'stored', 0, integer(0, 10_000_000));
  if (values.rate !== undefined && values.concurrency !== undefined) throw new Error(`--rate and --concurrency: choose one (open or closed loop)\n${TRANSACTIONAL_USAGE}`);
  return {
    help: values.help,
    sends,
    concurrency: number(values.concurrency, 'concurrency', 32, integer(1, 4096)),
    rate: values.rate === undefined ? undefined : number(values.rate, 'rate', 0, (n) => n > 0 && n <= 100_000),
    stored,
    partitions: number(values.partitions, 'partitions', 6, integer(1, 64)),
    latencyMs: number(values['latency-ms'], 'latency-ms', 0, integer(0, 10_000)),
    timeoutS: number(values['timeout-s'], 'timeout-s', defaultTransactionalTimeoutS(sends, stored), (n) => n > 0),
    json: values.json,
    keep: values.keep,
  };
}
