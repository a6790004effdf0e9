import type { SegmentService } from './services/segment-service.ts';
import type { DraftService } from './services/draft-service.ts';
import type { LiveActivityService } from './services/live-activity-service.ts';
import type { LiveActivityTokenService } from './services/live-activity-token-service.ts';
import type { AdminStore } from '@herald/admin';
import type { Clock } from '@herald/runtime';
import type { EventProducer, HeraldKafka } from '@herald/kafka';
import type { Store, ReadModelRegistry } from '@herald/mongo';
import type { Metrics } from '@herald/metrics';
import type { DeviceService } from './services/device-service.ts';
import type { NotificationService } from './services/notification-service.ts';
import type { TopicService } from './services/topic-service.ts';
import type { EventStreamService, StreamLimits } from './services/event-stream-service.ts';
import type { ApiKeyCache } from './services/api-key-cache.ts';
import type { DevicePolicy } from './domain/device-policy.ts';
import type { OverviewService } from './services/overview-service.ts';
import type { NotificationReportService } from './services/notification-report-service.ts';
import type { OperatorOptions } from './operator-token.ts';
import type { ExplainService } from './services/explain-service.ts';
import type { ExplainLimits } from '@herald/explain';
import type { WebhookService, WebhookSettings } from './services/webhook-service.ts';
import type { TemplateService } from './services/template-service.ts';

/** Everything the HTTP app needs, created by its owner (server.ts or a test) and passed in. */
export interface AppDeps {
  producer: EventProducer;
  db: Store;
  admin: AdminStore;
  readModels: ReadModelRegistry;
  metrics: Metrics;
  /** Resolves to a list of problems; empty when Kafka and MongoDB answer. */
  checkReady: () => Promise<string[]>;
  /** Schedule decisions (how far ahead send_at may be); tests move it (HERALD_CLOCK_FILE). Default: the system clock. */
  clock?: Clock;
  /** Where event streams read the log; without it GET /api/v1/events answers 503. */
  kafka?: HeraldKafka;
  eventStreams?: StreamLimits;
  /** What one explain request may cost (docs/reference/explain.md); default API_EXPLAIN_LIMITS. Needs `kafka` (else 503). */
  explainLimits?: ExplainLimits;
  /** What devices may store (quota, bytes); default DEFAULT_DEVICE_POLICY. */
  devicePolicy?: DevicePolicy;
  /** How long a checked API key is believed (revocation takes effect within it); default 2 s. */
  apiKeyCacheMs?: number;
  /** Webhook limits and whether local mode's http-to-loopback URLs are accepted; default: 10 per project, not local. */
  webhooks?: WebhookSettings;
  /** Where the console's built assets are (services/console/dist); without them /console/ answers 503. */
  consoleDir?: string;
  /** The operator API (/admin/v1: dead letters); without it those routes do not exist. */
  operator?: OperatorOptions;
}

export interface AppServices {
  events: EventStreamService;
  devices: DeviceService;
  topics: TopicService;
  notifications: NotificationService;
  reports: NotificationReportService;
  overview: OverviewService;
  explain: ExplainService;
  webhooks: WebhookService;
  templates: TemplateService;
  segments: SegmentService;
  drafts: DraftService;
  liveActivityTokens: LiveActivityTokenService;
  liveActivities: LiveActivityService;
  admin: AdminStore;
  keys: ApiKeyCache;
  checkReady: () => Promise<string[]>;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
    /** The project of the request's bearer key on a route where the key is optional (see bearer-auth). */
    optionalBearerProject: (request: FastifyRequest) => Promise<string | undefined>;
    /** Authenticates the request's bearer key: undefined when it is valid (projectId, apiKeyId set), else why not. */
    checkBearer: (request: FastifyRequest) => Promise<string | undefined>;
    /** The per-address budget of failed key checks (no-ops without rate limits): refused up front once spent, spent by each failure. */
    keyFailures: { refuseIfSpent(request: FastifyRequest): void; spend(request: FastifyRequest): Promise<void> };
    /** The project's budget for new anonymous devices (a no-op without rate limits): 429 once it is spent. */
    newDeviceBudget: { refuseIfSpent(request: FastifyRequest): void };
  }
  interface FastifyRequest {
    /** Set by a registration that made a new anonymous device: counted against the project's new-device budget, not its devices' one. */
    newAnonymousDevice: boolean;
    /** Set by bearer authentication: the project the API key belongs to. */
    projectId: string;
    /** Set by bearer authentication: the key's id (what the per-key rate limit counts). */
    apiKeyId: string;
  }
  interface FastifyContextConfig {
    /** Status for schema validation failures on this route (the spec uses 422 for send). */
    validationStatus?: 400 | 422;
  }
}
