import Type from 'typebox';
import { CommonConfig, metricsSettings } from '@herald/config';
import { ConfigError } from '@herald/errors';

export const DeliveryConfig = Type.Object({
  ...CommonConfig.properties,
  ...metricsSettings(9102),
  // Any word here: rolesOf names the roles, and the service that took over a former one.
  DELIVERY_ROLES: Type.String({ default: 'fanout,apns,fcm,webpush,hms', pattern: '^[a-z]+(,[a-z]+)*$', description: 'which delivery roles this process runs: fanout, apns, fcm, webpush, hms (webhooks is refused: the webhooks service sends them)' }),
  APNS_ENDPOINT: Type.Optional(Type.String({ pattern: '^https://', description: "overrides Apple's APNs host (staging, fakes; npm start: its fake)" })),
  FCM_ENDPOINT: Type.Optional(Type.String({ pattern: '^https://', description: 'overrides every Google endpoint firebase-admin calls (staging, fakes; npm start: its fake)' })),
  HERALD_SECRET_KEY: Type.Optional(Type.String({ minLength: 1, description: 'base64 or hex of at least 32 bytes that decrypts provider credentials; required by the apns, fcm, webpush and hms roles. Give it only to delivery and the CLI: npm start and docker-compose.yml never pass it to the API or the projector (npm start generates it into .herald/secret.key)' })),
  DELIVERY_RETRY_DEADLINE_MS: Type.Integer({ minimum: 0, default: 30_000, description: 'how long a batch keeps retrying 429/5xx/timeouts before reporting them failed' }),
  DELIVERY_MAX_AGE_MS: Type.Integer({ minimum: 1, default: 86_400_000, description: 'notifications requested longer ago are not sent' }),
  DELIVERY_MAX_ATTEMPTS: Type.Integer({ minimum: 1, default: 5, description: 'attempts per batch (a send that throws or leaves devices retryable past the deadline) before its open devices are reported failed with reason AttemptsExhausted' }),
  DELIVERY_FANOUT_STEP_DEVICES: Type.Integer({ minimum: 1, maximum: 50_000, default: 10_000, description: 'audience devices one fan-out step reads and queues per partition; longer audiences continue in herald.fanout-tasks records, so campaigns interleave' }),
  DELIVERY_FANOUT_CONCURRENCY: Type.Integer({ minimum: 1, default: 64, description: 'fan-out task partitions worked on at once (a small send on another partition never waits for a campaign step)' }),
  DELIVERY_INDEX_DIR: Type.String({ minLength: 1, default: '.herald/delivery', description: "this process's directory: its audience index (SQLite) and its instance id; one process per directory. Deleting it costs a rebuild from the log, never a push; an index an older release wrote in another format is rebuilt once at start, keeping the instance id (npm start: <HERALD_STATE_DIR>/delivery; docker compose: a volume)" }),
  DELIVERY_CONCURRENCY: Type.Integer({ minimum: 1, default: 8, description: 'campaign batches each sender sends at once, committed together (the express lane sends up to EXPRESS_CHUNK_BATCHES small batches at once)' }),
  APNS_MAX_IN_FLIGHT: Type.Integer({ minimum: 1, default: 100, description: 'APNs requests in flight per project credential, per delivery process: N processes hold N times this against Apple (docs/internals/senders.md)' }),
  APNS_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 5_000, description: 'an APNs request unanswered this long is retried (the push may have arrived: a timeout can repeat it)' }),
  WEBPUSH_MAX_IN_FLIGHT: Type.Integer({ minimum: 1, default: 200, description: 'Web Push requests in flight per delivery process, over every push service and project (each message is encrypted for its subscription, about 0.2 ms of CPU)' }),
  WEBPUSH_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000, description: 'a push service request unanswered this long is retried (the message may have been stored: a timeout can repeat it)' }),
  WEBPUSH_LOCAL: Type.Enum(['on', 'off'], { default: 'off', description: 'local mode (npm start sets it): the webpush role calls http:// and loopback subscription endpoints (the local fake push service); off, every address an endpoint resolves to must be public' }),
  HMS_ENDPOINT: Type.Optional(Type.String({ pattern: '^https://', description: "overrides Huawei Push Kit's API origin (https://push-api.cloud.huawei.com; fakes; npm start: its fake)" })),
  HMS_TOKEN_ENDPOINT: Type.Optional(Type.String({ pattern: '^https://', description: "overrides Huawei's OAuth token URL (https://oauth-login.cloud.huawei.com/oauth2/v3/token; fakes; npm start: its fake)" })),
  HMS_MAX_IN_FLIGHT: Type.Integer({ minimum: 1, default: 16, description: 'Push Kit multicast requests (up to 1,000 tokens each) in flight per delivery process, over every project' }),
  HMS_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000, description: 'a Push Kit request unanswered this long is retried (the push may have been accepted: a timeout can repeat it)' }),
  FCM_MAX_CONCURRENT_CHUNKS: Type.Integer({ minimum: 1, default: 2, description: 'FCM messages in flight per project credential, per delivery process, in full sendEach calls of 500 (2: 1,000 messages; a one-device send takes one of them)' }),
  LIVE_ACTIVITY_UPDATE_INTERVAL_MS: Type.Integer({ minimum: 0, default: 1_000, description: "the per-activity rate of Live Activity updates as an interval: an update followed within it by a newer one of the same activity is coalesced (not sent, counted as coalesced), and one that comes sooner than this after the activity's last push waits for it; 0 turns coalescing off" }),
  LIVE_ACTIVITY_SWEEP_MS: Type.Integer({ minimum: 100, default: 60_000, description: 'how often the apns role removes the update tokens of ended Live Activities whose dismissal date passed (how late after that date they may go)' }),
  DELIVERY_SCHEDULER_POLL_MS: Type.Integer({ minimum: 10, default: 200, description: 'how soon the scheduler looks again while due sends are leased by a scheduler' }),
  DELIVERY_SCHEDULER_IDLE_MS: Type.Integer({ minimum: 10, default: 5_000, description: 'the longest the scheduler sleeps with nothing due (it wakes at the next due time and for sends this process schedules): bounds how late a send leaves whose scheduling instance died before its time (docs/internals/idle.md)' }),
  HERALD_CLOCK_FILE: Type.Optional(Type.String({ minLength: 1, description: 'tests only: a file holding milliseconds added to the clock schedule decisions use' })),
  KAFKA_PARTITIONS: Type.Integer({ minimum: 1, default: 6, description: 'partitions for topics Herald creates' }),
});

export const ROLES = ['fanout', 'apns', 'fcm', 'webpush', 'hms'] as const;
export type Role = (typeof ROLES)[number];

/** Roles that left delivery for a service of their own: what to run instead. */
const MOVED_ROLES: Readonly<Record<string, string>> = {
  webhooks: 'DELIVERY_ROLES: webhooks is no longer a delivery role: webhooks are sent by their own service, services/webhooks (node services/webhooks/src/main.ts); leave it out here',
};

/** The roles DELIVERY_ROLES names (pure); a ConfigError names each word that is not one. */
export function rolesOf(value: string): Role[] {
  const words = [...new Set(value.split(','))];
  const problems = words
    .filter((word) => !(ROLES as readonly string[]).includes(word))
    .map((word) => MOVED_ROLES[word] ?? `DELIVERY_ROLES: ${word} is not a delivery role (${ROLES.join(', ')})`);
  if (problems.length > 0) throw new ConfigError(problems);
  return words as Role[];
}
