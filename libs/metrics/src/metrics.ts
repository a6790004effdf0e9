import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Herald's Prometheus metrics, one registry per process (no globals). Every
 * service exposes the same families; each fills the ones it has.
 */
export interface MetricsSources {
  /** Records stored per dead-letter topic, asked at each scrape for the topics this process's consumers dead-letter into. */
  deadLetterDepth?: (topics: readonly string[]) => Promise<ReadonlyMap<string, number>>;
}

/**
 * How often the event-loop delay histogram (`herald_nodejs_eventloop_lag_*`)
 * takes a sample. prom-client's default, 10 ms, is a timer that wakes every
 * process 100 times a second: on this box that alone was about 1 % of a core
 * per idle process (a bare Node process: 9.0 ms of CPU a second against 2.4
 * at 100 ms). At ten samples a second a 15 s scrape still covers 150, and
 * any stall longer than 100 ms delays at least one of them.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

export function createMetrics(service: string, sources: MetricsSources = {}) {
  const registry = new Registry();
  const deadLetterTopics = new Set<string>();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, prefix: 'herald_', eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({ name: 'herald_http_requests_total', help: 'HTTP requests answered', labelNames: ['method', 'route', 'status'], registers }),
    httpDuration: new Histogram({
      name: 'herald_http_request_duration_seconds',
      help: 'Time to answer an HTTP request',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    eventsProduced: new Counter({ name: 'herald_events_produced_total', help: 'Records acknowledged by Kafka', labelNames: ['topic', 'type'], registers }),
    eventsConsumed: new Counter({ name: 'herald_events_consumed_total', help: 'Records handled by a consumer group', labelNames: ['group', 'topic', 'type'], registers }),
    deadLetters: new Counter({ name: 'herald_dead_letters_total', help: 'Records a consumer group dead-lettered', labelNames: ['group', 'topic'], registers }),
    deadLetterTopics,
    dlqRecords: new Gauge({
      name: 'herald_dlq_records',
      help: "Records waiting in a dead-letter topic (stored records: end - start), for this process's consumer groups",
      labelNames: ['topic'],
      registers,
      async collect() {
        if (sources.deadLetterDepth === undefined || deadLetterTopics.size === 0) return;
        try {
          const depth = await sources.deadLetterDepth([...deadLetterTopics]);
          for (const [topic, records] of depth) this.set({ topic }, records);
        } catch {
          // Kafka away: the last figures stay; lag and readiness say Kafka is away.
        }
      },
    }),
    consumerLag: new Gauge({ name: 'herald_consumer_lag', help: 'Records behind the end of the partition, at the last batch', labelNames: ['group', 'topic', 'partition'], registers }),
    readinessChecks: new Counter({ name: 'herald_readiness_checks_total', help: 'Dependency checks /readyz ran (answers served from the last check not counted)', registers }),
    eventStreams: new Gauge({ name: 'herald_event_streams_open', help: 'Event streams this API process holds open (slots taken, readers included)', registers }),
    indexApplied: new Counter({ name: 'herald_audience_index_records_applied_total', help: 'device-events records this delivery process applied to its audience index', labelNames: ['partition'], registers }),
    indexPosition: new Gauge({ name: 'herald_audience_index_next_offset', help: 'The next device-events offset the audience index applies, per partition this process holds or held', labelNames: ['partition'], registers }),
    webhookLag: new Gauge({ name: 'herald_webhook_lag', help: "Log records between a webhook's position and the end of the topics it reads, at the last measure", labelNames: ['webhook_id'], registers }),
    webhookEvents: new Counter({ name: 'herald_webhook_events_delivered_total', help: 'Events a webhook endpoint acknowledged (2xx)', labelNames: ['webhook_id'], registers }),
    webhookFailures: new Counter({ name: 'herald_webhook_failed_attempts_total', help: 'Webhook requests that failed (not 2xx, refused, timed out)', labelNames: ['webhook_id'], registers }),
    webhookDeadLetters: new Counter({ name: 'herald_webhook_dead_letters_total', help: 'Webhook deliveries given up after the dead-letter time', labelNames: ['webhook_id'], registers }),
    webhookLastFailure: new Gauge({ name: 'herald_webhook_last_failure_timestamp_seconds', help: "When a webhook's last request failed (unix seconds)", labelNames: ['webhook_id'], registers }),
    deliveries: new Counter({ name: 'herald_deliveries_total', help: 'Per-device delivery outcomes', labelNames: ['provider', 'outcome'], registers }),
    providerLatency: new Histogram({
      name: 'herald_provider_send_duration_seconds',
      help: 'Time for one provider send call (a batch of up to 500 devices)',
      labelNames: ['provider'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** `/metrics` for processes without an HTTP API of their own (projector, delivery). */
/**
 * Serves `/metrics`, and `/readyz`: 503 until `ready()` says the process can
 * do its work (a delivery process: it can deliver), then 200. Without
 * `ready`, `/readyz` answers 200 once the server listens.
 */
export async function startMetricsServer(registry: Registry, host: string, port: number, ready: () => boolean = () => true): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.url === '/readyz') {
      const isReady = ready();
      response.writeHead(isReady ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(isReady ? { status: 'ready' } : { errors: ['not ready yet: still starting (its log says what it waits for)'] }));
      return;
    }
    if (request.url !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: ['only /metrics and /readyz are served here'] }));
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: ['metrics unavailable'] })),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Feeds the Kafka library's hooks into the metrics (structurally a KafkaObserver). */
export function kafkaObserver(metrics: Metrics) {
  return {
    produced: (topic: string, type: string, count: number) => metrics.eventsProduced.inc({ topic, type }, count),
    consumed: (group: string, topic: string, type: string, count: number) => metrics.eventsConsumed.inc({ group, topic, type }, count),
    deadLettered: (group: string, topic: string, count: number) => metrics.deadLetters.inc({ group, topic }, count),
    lag: (group: string, topic: string, partition: number, lag: number) => metrics.consumerLag.set({ group, topic, partition: String(partition) }, lag),
    deadLetterTopics: (topics: readonly string[]) => {
      for (const topic of topics) metrics.deadLetterTopics.add(topic);
    },
  };
}
