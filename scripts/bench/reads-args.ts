import { parseArgs } from 'node:util';

export interface ReadsArgs {
  devices: number;
  projects: number;
  notifications: number;
  /** Devices registered through the API (anonymous POST /api/v1/devices) once the rest is stored; the rest goes through Kafka. */
  apiRegistrations: number;
  /** Registrations in flight at once through the API. */
  inFlight: number;
  /** Concurrent clients per read endpoint, and requests per endpoint. */
  clients: number;
  requests: number;
  /** Notifications of the large project given delivery receipts, and devices each. */
  receiptNotifications: number;
  receiptDevices: number;
  partitions: number;
  timeoutS: number;
  json: boolean;
  keep: boolean;
}

const USAGE = `usage: npm run bench:reads -- [options]
  --devices N             devices stored (default 100000)
  --projects N            projects they belong to (default 10; at least 3): one large (40 %),
                          one with a single device, the others sharing the rest
  --notifications N       notifications stored, spread like the devices (default 10000)
  --api-registrations N   of the devices, how many are registered through the API, anonymously,
                          once the others are stored (default 20000; the rest go through Kafka)
  --in-flight N           registrations in flight through the API (default 64)
  --clients N             concurrent clients per read endpoint (default 8)
  --requests N            requests per read endpoint (default 400)
  --receipts N            notifications of the large project given receipts (default 5)
  --receipt-devices N     devices each of them was sent to (default 2000)
  --partitions N          partitions of the run's topics (default 6)
  --timeout-s S           bound on the whole run (default: 300 + 1500 per million devices)
  --json                  one JSON summary as the last line of stdout
  --keep                  leave the data (temp dir, or database and topics on external servers)
Uses KAFKA_BROKERS / MONGO_URL when set; starts local Kafka + FerretDB otherwise.`;

function number(value: string | undefined, name: string, fallback: number, check: (n: number) => boolean): number {
  if (value === undefined) return fallback;
  const parsed = Number(value.replace(/_/g, ''));
  if (!Number.isFinite(parsed) || !check(parsed)) throw new Error(`--${name}: invalid value '${value}'\n${USAGE}`);
  return parsed;
}

const whole = (min: number, max: number) => (n: number) => Number.isInteger(n) && n >= min && n <= max;

export function parseReadsArgs(argv: readonly string[]): ReadsArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      devices: { type: 'string' },
      projects: { type: 'string' },
      notifications: { type: 'string' },
      'api-registrations': { type: 'string' },
      'in-flight': { type: 'string' },
      clients: { type: 'string' },
      requests: { type: 'string' },
      receipts: { type: 'string' },
      'receipt-devices': { type: 'string' },
      partitions: { type: 'string' },
      'timeout-s': { type: 'string' },
      json: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const devices = number(values.devices, 'devices', 100_000, whole(10, 10_000_000));
  const projects = number(values.projects, 'projects', 10, whole(3, 1_000));
  const apiRegistrations = number(values['api-registrations'], 'api-registrations', Math.min(20_000, Math.floor(devices / 2)), whole(0, devices));
  return {
    devices,
    projects,
    notifications: number(values.notifications, 'notifications', 10_000, whole(projects, 10_000_000)),
    apiRegistrations,
    inFlight: number(values['in-flight'], 'in-flight', 64, whole(1, 1_024)),
    clients: number(values.clients, 'clients', 8, whole(1, 256)),
    requests: number(values.requests, 'requests', 400, whole(10, 1_000_000)),
    receiptNotifications: number(values.receipts, 'receipts', 5, whole(0, 1_000)),
    receiptDevices: number(values['receipt-devices'], 'receipt-devices', 2_000, whole(1, 1_000_000)),
    partitions: number(values.partitions, 'partitions', 6, whole(1, 64)),
    timeoutS: number(values['timeout-s'], 'timeout-s', 300 + Math.ceil((devices / 1_000_000) * 1500), (n) => n > 0),
    json: values.json,
    keep: values.keep,
  };
}

/** How many devices (or notifications) each project holds: project 0 the large one (40 %), the last one a single item, the rest shared. */
export function projectSizes(total: number, projects: number): number[] {
  const large = Math.floor(total * 0.4);
  const middle = projects - 2;
  const rest = total - large - 1;
  return [large, ...Array.from({ length: middle }, (_, index) => Math.floor(rest / middle) + (index < rest % middle ? 1 : 0)), 1];
}
