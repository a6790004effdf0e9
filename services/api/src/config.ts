import Type from 'typebox';
import { CommonConfig, metricsSettings } from '@herald/config';
import { API_EXPLAIN_LIMITS } from '@herald/explain';

export const ApiConfig = Type.Object({
  ...CommonConfig.properties,
  ...metricsSettings(9100),
  HOST: Type.String({ default: '127.0.0.1', description: 'address the API listens on' }),
  EVENT_STREAMS_PER_PROCESS: Type.Integer({ minimum: 0, default: 100, description: 'GET /api/v1/events streams one API process serves at once (each reads the whole log)' }),
  EVENT_STREAMS_PER_PROJECT: Type.Integer({ minimum: 0, default: 5, description: 'event streams one project may hold open at once, per API process' }),
  EXPLAIN_MAX_RECORDS: Type.Integer({ minimum: 1, default: API_EXPLAIN_LIMITS.maxRecords, description: 'log records one explain request may span (422 past it; docs/reference/explain.md)' }),
  EXPLAIN_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: API_EXPLAIN_LIMITS.timeoutMs, description: 'how long one explain request may read the log (503 past it; its request deadline is this + 5 s)' }),
  EVENT_STREAM_MAX_MS: Type.Integer({ minimum: 1000, default: 3_600_000, description: 'an event stream ends after this; clients resume with Last-Event-ID' }),
  WEBHOOKS_PER_PROJECT: Type.Integer({ minimum: 0, maximum: 1_000, default: 10, description: 'webhooks one project may register (each reads the whole log: docs/webhooks.md)' }),
  WEBHOOKS_LOCAL: Type.Enum(['on', 'off'], { default: 'off', description: 'local mode (npm start sets it): webhook URLs may be http:// to a loopback host' }),
  WEBPUSH_LOCAL: Type.Enum(['on', 'off'], { default: 'off', description: 'local mode (npm start sets it): web push subscription endpoints may be http:// or https:// to a loopback host (the local fake push service)' }),
  WEBPUSH_ENDPOINT_HOSTS: Type.String({
    default: 'fcm.googleapis.com,push.services.mozilla.com,web.push.apple.com,notify.windows.com',
    pattern: '^(\\*|[a-z0-9.-]+(,[a-z0-9.-]+)*)$',
    description:
      "the push services a web subscription's endpoint may name: comma-separated host names, each also allowing its subdomains (the default: Chrome, Edge's Chromium and Android browsers' FCM, Firefox, Safari, Windows); * allows any public host",
  }),
  HERALD_CLOCK_FILE: Type.Optional(Type.String({ minLength: 1, description: 'tests only: a file holding milliseconds added to the clock schedule decisions use' })),
  CONSOLE_DIR: Type.Optional(Type.String({ minLength: 1, description: "the console's built assets, served at /console/ (default: services/console/dist)" })),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'port the API listens on' }),
  KAFKA_PARTITIONS: Type.Integer({ minimum: 1, default: 6, description: 'partitions for topics Herald creates' }),
  TRUST_PROXY: Type.String({
    default: 'false',
    pattern: '^(true|false|\\d{1,2}|[0-9A-Fa-f:./]+(,[0-9A-Fa-f:./]+)*)$',
    description: "which proxies' X-Forwarded-For to believe: false, true, a hop count, or comma-separated addresses/CIDRs",
  }),
  HERALD_RATE_LIMITS: Type.Enum(['on', 'off'], { default: 'on', description: 'off switches every rate limit off (benchmarks, trusted networks)' }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 60_000, description: 'the window every rate limit counts in' }),
  RATE_LIMIT_DEVICE_PER_ADDRESS: Type.Integer({ minimum: 1, default: 300, description: 'device-facing requests per client address per window' }),
  RATE_LIMIT_DEVICE_PER_PROJECT: Type.Integer({ minimum: 1, default: 30_000, description: 'device-facing requests per project per window' }),
  RATE_LIMIT_NEW_DEVICES_PER_PROJECT: Type.Integer({
    minimum: 1,
    default: 3_000,
    description: 'devices registered without the API key that are new to their project, per project per window (a budget of their own: they never spend the one of its existing devices)',
  }),
  RATE_LIMIT_BEARER_PER_KEY: Type.Integer({ minimum: 1, default: 6_000, description: 'bearer requests per valid API key per window (however Authorization is spelled)' }),
  RATE_LIMIT_UNAUTHENTICATED_PER_ADDRESS: Type.Integer({
    minimum: 1,
    default: 60,
    description: 'bearer-route requests without a valid API key (missing, malformed, unknown, revoked) per client address per window; past it the address gets 429 before any key is looked up',
  }),
  HERALD_ADMIN_TOKEN: Type.Optional(
    Type.String({
      minLength: 32,
      maxLength: 512,
      pattern: '^[\\x21-\\x7e]+$',
      description: "the operator's token for /admin/v1 (dead letters of every project: docs/reference/operator-api.md); unset: those endpoints do not exist (404). At least 32 printable characters, e.g. `openssl rand -base64 32`; a secret: redacted from logs",
    }),
  ),
  RATE_LIMIT_ADMIN_PER_ADDRESS: Type.Integer({ minimum: 1, default: 30, description: '/admin/v1 requests per client address per window, right token or not (stays on with HERALD_RATE_LIMITS=off)' }),
  CONNECTIONS_PER_ADDRESS: Type.Integer({ minimum: 0, default: 128, description: 'open connections one client address (IPv6: its /64) may hold; 0: unbounded (behind a proxy; also off with HERALD_RATE_LIMITS=off)' }),
  API_KEY_CACHE_MS: Type.Integer({ minimum: 0, maximum: 10_000, default: 2_000, description: 'how long a checked API key is believed: a revoked key, and its open event streams, stop within it (streams ask at least every second)' }),
  PROJECT_DEVICE_QUOTA: Type.Integer({ minimum: 1, default: 1_000_000, description: 'devices (active, and inactive unless the project deleted them) a project may hold unless it has its own quota (herald projects device-quota)' }),
  PROJECT_ANONYMOUS_DEVICE_PERCENT: Type.Integer({
    minimum: 0,
    maximum: 100,
    default: 90,
    description: "the share (percent) of a project's device quota that devices registered without its API key may fill; the rest stays for the key",
  }),
  DEVICE_MAX_BYTES: Type.Integer({
    minimum: 1_024,
    maximum: 262_144,
    default: 16_384,
    description: "bytes of token, identifiers, metadata, topics, external_id and timezone one device may hold (as JSON); registrations and metadata PATCHes past it get 400",
  }),
  DEVICE_QUOTA_RECOUNT_MS: Type.Integer({ minimum: 1_000, default: 60_000, description: "how often a project's devices are counted again for its quota, per API process" }),
  REQUEST_DEADLINE_MS: Type.Integer({ minimum: 100, default: 4_500, description: 'a request not answered by then gets 503 and Retry-After; one whose headers and body have not arrived 0.5 s before it gets 408 and its connection closed' }),
  PUBLISH_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 3_000, description: 'a Kafka publish not acknowledged by then answers 503' }),
  PUBLISH_MAX_IN_FLIGHT: Type.Integer({ minimum: 1, default: 2_000, description: 'publishes waiting for Kafka at once; more answer 503 at once' }),
});
