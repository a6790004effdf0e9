import { parseArgs } from 'node:util';
import { contentPlanOf, type ContentPlan } from './content-plan.ts';

export interface BenchArgs {
  devices: number;
  iosShare: number;
  /** Share of the devices that are browsers (Web Push, sent to the fake push service); iOS and Android split the rest by iosShare. */
  webShare: number;
  /** Share of the devices that are Android devices with Huawei Mobile Services (Push Kit, sent to the fake HMS); webShare + huaweiShare ≤ 1. */
  huaweiShare: number;
  latencyMs: number;
  timeoutS: number;
  keep: boolean;
  /** Raw HTTP/2 ceiling: requests to send (stops earlier at `ceilingSeconds`). */
  ceilingRequests: number;
  ceilingSeconds: number;
  partitions: number;
  /** One JSON object (see summary.ts) as the last line of stdout. */
  json: boolean;
  deliveryInstances: number;
  projectorInstances: number;
  /** `--split-delivery-roles`: delivery as one process per role (fanout, apns, fcm, webpush, hms), each watched apart; the summary adds CPU per push by provider. */
  splitDeliveryRoles: boolean;
  /** Faults, each at a percentage of the targeted devices delivered; undefined = not injected. */
  faults: FaultPlan;
  /** Campaign control: the campaign's rate_per_minute, and a pause at P % delivered resumed S seconds later. */
  ratePerMinute?: number | undefined;
  pauseAt?: number | undefined;
  resumeAfterS?: number | undefined;
  /** Before the campaign, restart every delivery instance on its index directory and time it until it is ready to fan out. */
  restartDelivery: boolean;
  /** Brokers of the local Kafka the run starts (3: a KRaft cluster, RF 3 / min ISR 2). */
  brokers: number;
  /** `--transactional-during`: the summary adds transactional_max_latency_ms. */
  transactionalDuring: boolean;
  /** `--kill-broker-at`: seconds from the kill to starting the broker again. */
  restartBrokerAfterS: number;
  /** `--template`: a literal campaign, then a template (A/B) campaign to the same devices; content-campaign.ts. */
  content?: ContentPlan | undefined;
}

export interface FaultPlan {
  killDeliveryAt?: number;
  restartBrokerAt?: number;
  restartStoreAt?: number;
  /** kill -9 the broker leading the most delivery and device-event partitions (a cluster of three), started again `restartBrokerAfterS` later. */
  killBrokerAt?: number;
  addDeliveryAt?: number;
  smallSendAt?: number;
}

const FAULT_OPTIONS = {
  'kill-delivery-at': 'killDeliveryAt',
  'restart-broker-at': 'restartBrokerAt',
  'restart-store-at': 'restartStoreAt',
  'kill-broker-at': 'killBrokerAt',
  'add-delivery-at': 'addDeliveryAt',
  'small-send-at': 'smallSendAt',
} as const satisfies Record<string, keyof FaultPlan>;

const USAGE = `usage: npm run bench:campaign -- [options]
  --devices N           devices registered and targeted (default 100000)
  --ios-share F         share of iOS devices among the native ones, 0..1 (default 0.5)
  --web-share F         share of web devices (Web Push, to the fake push service), 0..1 (default 0)
  --huawei-share F      share of huawei devices (Push Kit, to the fake HMS), 0..1; with --web-share at most 1 (default 0)
  --latency-ms MS       latency the fake APNs/FCM add to every answer (default 0)
  --timeout-s S         bound on the whole run (default: max(180, 600 per million devices);
                        more on the local FerretDB, see README.md)
  --ceiling-requests N  raw HTTP/2 requests for the ceiling (default 200000)
  --ceiling-s S         raw HTTP/2 ceiling time bound (default 10)
  --partitions N        KAFKA_PARTITIONS for the run's topics (default 6)
  --json                print one JSON summary object as the last line of stdout
  --delivery-instances N   delivery processes (default 1)
  --projector-instances N  projector processes (default 1)
  --split-delivery-roles   delivery as one process per role (fanout, apns, fcm,
                        webpush, hms; DELIVERY_ROLES=<role> each), each watched as
                        its own group; adds cpu_us_per_push_by_provider and
                        fanout_cpu_us_per_push (one instance per role: not with
                        --delivery-instances > 1, --add-delivery-at or --template)
  Faults, at P % of the targeted devices delivered (0 < P < 100):
  --kill-delivery-at P  kill -9 one delivery instance, then start it again
  --restart-broker-at P kill -9 Kafka (local infra only), then start it again
  --restart-store-at P  kill -9 the store (local infra only), then start it again
  --brokers N           brokers of the local Kafka the run starts (default 1; 3: a
                        KRaft cluster whose topics keep 3 copies, 2 in sync)
  --kill-broker-at P    kill -9 the broker leading the most herald.deliveries.* and
                        herald.device-events partitions (needs --brokers 3) …
  --restart-broker-after S  … and start it again S seconds later (default 20);
                        the summary adds broker_killed and leader_failover_ms
  --add-delivery-at P   start one more delivery instance (forces a rebalance)
  --small-send-at P     send a 10-device notification to a second topic; reports
                        small_send_latency_ms (request → all 10 delivered)
  A run with faults exits non-zero unless every device is delivered, duplicates
  stay within 500 × batches in flight on a killed instance, nothing is
  dead-lettered and the counts equal the delivery reports.
  Campaign control (issue 19):
  --rate-per-minute R   send the campaign paced at R pushes per minute; the judge
                        requires the rate within ±5 % over every minute (or the
                        whole span of a shorter run)
  --pause-at P          PATCH the campaign paused at P % delivered …
  --resume-after S      … and resumed S seconds later (default 10); the judge
                        requires no push from 1 s after the pause to the resume
  --transactional-during  a 10-device send of the same project during the
                        campaign (= --small-send-at 30, or at --kill-broker-at,
                        unless given); adds transactional_max_latency_ms
  --restart-delivery    before the campaign, stop every delivery instance (SIGTERM)
                        and start it again on its index directory; reports
                        restart_ready_ms (start → groups joined and every
                        partition's index at the device-events ends)
  Content (issue 48): a literal campaign, then a template campaign to the same
  devices, each judged; reports both CPU figures per push and their ratio:
  --template K          personalised (reads device.metadata.first_name) or
                        per-locale (reads no device value)
  --locales N           content locales of each template, default + N-1 (1..10,
                        default 10); devices registered over those N locales,
                        ten in eleven with a first_name metadata
  --variants V          1: a template send; 2..5: an A/B send, one template per
                        variant, no holdout, no test (default 1)
  --keep                leave data (temp dir, or database + topics on external infra)
Uses KAFKA_BROKERS / MONGO_URL when set; starts local Kafka + FerretDB when either is unset
(and uses the local server only for the one that is unset).`;

function number(value: string | undefined, name: string, fallback: number, check: (n: number) => boolean): number {
  if (value === undefined) return fallback;
  const parsed = Number(value.replace(/_/g, ''));
  if (!Number.isFinite(parsed) || !check(parsed)) throw new Error(`--${name}: invalid value '${value}'\n${USAGE}`);
  return parsed;
}

/**
 * 600 s per million devices (at least 180 s) against real servers; on the
 * local FerretDB (1.24 over SQLite), whose counts and fan-out query scan and
 * sort the whole collection, 1800 s per million (at least 300 s).
 */
export function defaultTimeoutS(devices: number, localFerretDb = process.env.MONGO_URL === undefined): number {
  return localFerretDb ? Math.max(300, Math.ceil((devices / 1_000_000) * 1800)) : Math.max(180, Math.ceil((devices / 1_000_000) * 600));
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      devices: { type: 'string' },
      'ios-share': { type: 'string' },
      'web-share': { type: 'string' },
      'huawei-share': { type: 'string' },
      'latency-ms': { type: 'string' },
      'timeout-s': { type: 'string' },
      'ceiling-requests': { type: 'string' },
      'ceiling-s': { type: 'string' },
      partitions: { type: 'string' },
      keep: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'delivery-instances': { type: 'string' },
      'projector-instances': { type: 'string' },
      'split-delivery-roles': { type: 'boolean', default: false },
      'kill-delivery-at': { type: 'string' },
      'restart-broker-at': { type: 'string' },
      'restart-store-at': { type: 'string' },
      'kill-broker-at': { type: 'string' },
      'restart-broker-after': { type: 'string' },
      brokers: { type: 'string' },
      'add-delivery-at': { type: 'string' },
      'small-send-at': { type: 'string' },
      'rate-per-minute': { type: 'string' },
      'pause-at': { type: 'string' },
      'resume-after': { type: 'string' },
      'transactional-during': { type: 'boolean', default: false },
      'restart-delivery': { type: 'boolean', default: false },
      template: { type: 'string' },
      locales: { type: 'string' },
      variants: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const devices = number(values.devices, 'devices', 100_000, (n) => Number.isInteger(n) && n >= 1 && n <= 10_000_000);
  const faults: FaultPlan = {};
  for (const [option, field] of Object.entries(FAULT_OPTIONS)) {
    const value = values[option as keyof typeof FAULT_OPTIONS];
    if (value !== undefined) faults[field] = number(value, option, 0, (n) => n > 0 && n < 100);
  }
  // With a broker killed, the transactional send goes out while it is down.
  if (values['transactional-during'] && faults.smallSendAt === undefined) faults.smallSendAt = faults.killBrokerAt ?? 30;
  if (values['resume-after'] !== undefined && values['pause-at'] === undefined) throw new Error(`--resume-after needs --pause-at\n${USAGE}`);
  const brokers = number(values.brokers, 'brokers', 1, (n) => Number.isInteger(n) && n >= 1 && n <= 9);
  if (faults.killBrokerAt !== undefined && brokers < 3) throw new Error(`--kill-broker-at needs --brokers 3 (or more): with fewer, a killed broker takes its partitions' only in-sync copies with it\n${USAGE}`);
  if (values['restart-broker-after'] !== undefined && faults.killBrokerAt === undefined) throw new Error(`--restart-broker-after needs --kill-broker-at\n${USAGE}`);
  const content = (() => {
    try {
      return contentPlanOf(values);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${USAGE}`, { cause: error });
    }
  })();
  // One campaign's faults or steering would fall on the template campaign only, and skew the comparison.
  const steered = Object.keys(faults).length > 0 || values['rate-per-minute'] !== undefined || values['pause-at'] !== undefined || values['restart-delivery'];
  if (content !== undefined && steered) throw new Error(`--template compares two unsteered campaigns: no faults, --rate-per-minute, --pause-at or --restart-delivery with it\n${USAGE}`);
  const webShare = number(values['web-share'], 'web-share', 0, (n) => n >= 0 && n <= 1);
  const huaweiShare = number(values['huawei-share'], 'huawei-share', 0, (n) => n >= 0 && n <= 1);
  // A hair over 1 is floating point (0.7 + 0.3), not a mistake.
  if (webShare + huaweiShare > 1 + 1e-9) throw new Error(`--web-share and --huawei-share add up to more than 1 (${webShare} + ${huaweiShare})\n${USAGE}`);
  const instances = (name: 'delivery-instances' | 'projector-instances') => number(values[name], name, 1, (n) => Number.isInteger(n) && n >= 1 && n <= 16);
  const deliveryInstances = instances('delivery-instances');
  // One process per role: a second instance (or one added mid-run) would run all roles or share a role's group, and blur whose CPU is whose.
  if (values['split-delivery-roles'] && (deliveryInstances > 1 || faults.addDeliveryAt !== undefined || content !== undefined)) {
    throw new Error(`--split-delivery-roles runs one delivery process per role, one instance each: not with --delivery-instances above 1, --add-delivery-at or --template\n${USAGE}`);
  }
  return {
    devices,
    iosShare: number(values['ios-share'], 'ios-share', 0.5, (n) => n >= 0 && n <= 1),
    webShare,
    huaweiShare,
    latencyMs: number(values['latency-ms'], 'latency-ms', 0, (n) => Number.isInteger(n) && n >= 0 && n <= 10_000),
    timeoutS: number(values['timeout-s'], 'timeout-s', defaultTimeoutS(devices), (n) => n > 0),
    ceilingRequests: number(values['ceiling-requests'], 'ceiling-requests', 200_000, (n) => Number.isInteger(n) && n >= 0),
    ceilingSeconds: number(values['ceiling-s'], 'ceiling-s', 10, (n) => n > 0 && n <= 120),
    partitions: number(values.partitions, 'partitions', 6, (n) => Number.isInteger(n) && n >= 1 && n <= 64),
    keep: values.keep,
    json: values.json,
    deliveryInstances,
    projectorInstances: instances('projector-instances'),
    splitDeliveryRoles: values['split-delivery-roles'],
    faults,
    restartDelivery: values['restart-delivery'],
    brokers,
    transactionalDuring: values['transactional-during'],
    restartBrokerAfterS: number(values['restart-broker-after'], 'restart-broker-after', 20, (n) => n > 0 && n <= 3600),
    ...(content === undefined ? {} : { content }),
    ...(values['rate-per-minute'] === undefined ? {} : { ratePerMinute: number(values['rate-per-minute'], 'rate-per-minute', 0, (n) => Number.isInteger(n) && n >= 1 && n <= 100_000_000) }),
    ...(values['pause-at'] === undefined
      ? {}
      : { pauseAt: number(values['pause-at'], 'pause-at', 0, (n) => n > 0 && n < 100), resumeAfterS: number(values['resume-after'], 'resume-after', 10, (n) => n > 0 && n <= 3600) }),
  };
}
