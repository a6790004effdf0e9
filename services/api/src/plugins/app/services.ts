import fp from 'fastify-plugin';
import type { AppDeps } from '../../app-deps.ts';
import { IdempotencyStore, WebhookStore } from '@herald/admin';
import type { Logger } from '@herald/log';
import { systemClock } from '@herald/runtime';
import { DEFAULT_HTTP_OPTIONS, type HttpOptions } from '../../http-options.ts';
import { guardProducer } from '../../guard-producer.ts';
import { DeviceService } from '../../services/device-service.ts';
import { NotificationService } from '../../services/notification-service.ts';
import { TopicService } from '../../services/topic-service.ts';
import { NotificationReportService } from '../../services/notification-report-service.ts';
import { OverviewService } from '../../services/overview-service.ts';
import { DEFAULT_STREAM_LIMITS, EventStreamService } from '../../services/event-stream-service.ts';
import { ApiKeyCache } from '../../services/api-key-cache.ts';
import { ExplainService } from '../../services/explain-service.ts';
import { API_EXPLAIN_LIMITS } from '@herald/explain';
import { singleFlightCache } from '../../single-flight-cache.ts';
import { WebhookService } from '../../services/webhook-service.ts';
import { WEBHOOK_LIMITS } from '../../domain/webhook-request.ts';
import { AcceptedHere } from '../../domain/just-sent.ts';
import { TemplateService } from '../../services/template-service.ts';
import { SegmentService } from '../../services/segment-service.ts';
import { DraftService } from '../../services/draft-service.ts';
import { LiveActivityTokenService } from '../../services/live-activity-token-service.ts';
import { LiveActivityService } from '../../services/live-activity-service.ts';

const DEFAULT_API_KEY_CACHE_MS = 2_000;
const READY_CACHE_MS = 1_000;

/**
 * Services are built once per app from the injected dependencies. They publish
 * through a guarded producer: a Kafka that does not acknowledge answers 503 in
 * time instead of holding requests.
 */
export default fp<AppDeps & { http?: HttpOptions }>(
  async (fastify, options) => {
    const deps = { ...options, producer: guardProducer(options.producer, (options.http ?? DEFAULT_HTTP_OPTIONS).publish) };
    const keys = new ApiKeyCache({ lookup: (apiKey) => deps.admin.projectForKey(apiKey), ttlMs: deps.apiKeyCacheMs ?? DEFAULT_API_KEY_CACHE_MS });
    const devices = new DeviceService(deps);
    // What this instance accepted a moment ago, before the read model has it: one memory for every read of a notification.
    const accepted = new AcceptedHere();
    const templates = new TemplateService(deps);
    const segments = new SegmentService(deps);
    fastify.decorate('services', {
      events: new EventStreamService({ kafka: deps.kafka, limits: deps.eventStreams ?? DEFAULT_STREAM_LIMITS, admin: deps.admin, keys, onOpenCount: (open) => deps.metrics.eventStreams.set(open) }),
      devices,
      topics: new TopicService(deps),
      notifications: new NotificationService({ ...deps, accepted, templates, segments, idempotency: new IdempotencyStore(deps.db), logger: fastify.log as Logger, clock: deps.clock ?? systemClock }),
      reports: new NotificationReportService({ ...deps, accepted }),
      overview: new OverviewService({ readModels: deps.readModels, devices }),
      explain: new ExplainService({ kafka: deps.kafka, readModels: deps.readModels, limits: deps.explainLimits ?? API_EXPLAIN_LIMITS, accepted, db: deps.db }),
      webhooks: new WebhookService({ store: new WebhookStore(deps.db), settings: deps.webhooks ?? { perProject: WEBHOOK_LIMITS.defaultPerProject, local: false } }),
      templates,
      segments,
      drafts: new DraftService({ ...deps, accepted }),
      liveActivityTokens: new LiveActivityTokenService(deps),
      liveActivities: new LiveActivityService(deps),
      admin: deps.admin,
      keys,
      // One answer per second at most, however often /readyz is asked: each check opens a Kafka admin connection.
      checkReady: singleFlightCache(() => {
        deps.metrics.readinessChecks.inc();
        return deps.checkReady();
      }, READY_CACHE_MS),
    });
  },
  { name: 'services' },
);
