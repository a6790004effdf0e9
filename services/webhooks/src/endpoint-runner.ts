import { openLogReader, type HeraldKafka, type LogPosition, type LogReader, type LogRecord } from '@herald/kafka';
import { signingSecrets, storedOffsets, type WebhookDocument, type WebhookStatus, type WebhookStore } from '@herald/admin';
import type { HeraldEvent } from '@herald/events';
import type { Logger } from '@herald/log';
import { retry, RetryStopped, type Clock } from '@herald/runtime';
import { webhookRetry, type RetryPolicy } from './backoff.ts';
import { flushDelay, WEBHOOK_BATCH_MAX_BYTES } from './batching.ts';
import { signatureHeader, WEBHOOK_HEADERS } from './signature.ts';
import { WEBHOOK_TOPICS, webhookRequest, webhookWants } from './select-events.ts';
import { withoutAddresses, type PostResult } from './outbound.ts';

/** Herald's one clock shape: its sleep resolves at once when its signal aborts. */
export type WebhookClock = Clock;

/** The endpoint did not acknowledge a request (its answer, or why there was none): retried, then dead-lettered. */
class RequestFailed extends Error {}

export interface WebhookObserver {
  delivered(webhookId: string, events: number): void;
  failed(webhookId: string, atMs: number): void;
  deadLettered(webhookId: string): void;
}

export interface EndpointDeps {
  kafka: HeraldKafka;
  store: WebhookStore;
  /** The latest stored registration (url, types, secrets may change while it runs). */
  current(): WebhookDocument;
  post(url: string, body: string, headers: Record<string, string>): Promise<PostResult>;
  policy: RetryPolicy;
  clock: WebhookClock;
  logger: Logger;
  observer: WebhookObserver;
}

export interface RunningEndpoint {
  generation: number;
  /** Next offset per partition up to which every wanted event was delivered (or dead-lettered). */
  position(): LogPosition;
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * One webhook as a consumer of the log: a log reader from its stored
 * position hands records in log order (one at a time, so events of a
 * notification stay in order); the wanted ones wait in a batch that is sent
 * at `max_events` or after `max_wait_ms`, retried with back-off until it is
 * acknowledged or dead-lettered, and only then does the stored position move
 * past them: a crash or a stop repeats a batch, never skips one (at least once).
 */
export async function runEndpoint(deps: EndpointDeps, from: LogPosition, generation: number): Promise<RunningEndpoint> {
  const { clock, logger } = deps;
  const id = deps.current()._id;
  const stopping = new AbortController();
  const read: LogPosition = structuredClone(from);
  let delivered: LogPosition = structuredClone(from);
  let waiting: HeraldEvent[] = [];
  let waitingBytes = 0;
  let oldestAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let status: WebhookStatus = { ...deps.current().status };
  let dirty = true;
  const serial = (work: () => Promise<void>) => (chain = chain.then(work, work));

  const save = async () => {
    if (!dirty) return;
    dirty = false;
    await deps.store.progress(id, generation, { position: storedOffsets(delivered), status: { ...withoutLag(status), updated_at: new Date(clock.now()) } }).catch((error: unknown) => {
      dirty = true;
      logger.warn({ err: error, webhook_id: id }, 'could not save webhook progress (retried with the next)');
    });
  };

  const deliver = async (events: HeraldEvent[]): Promise<'done' | 'stopped'> => {
    const { body, deliveryId } = webhookRequest(id, events);
    let firstFailureAt: number | undefined;
    let last: { attempt: number; failedAt: number; error: string; projectId: string } | undefined;
    const postOnce = async (attempt: number) => {
      const webhook = deps.current();
      const now = clock.now();
      const timestamp = Math.floor(now / 1000);
      const headers = {
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: signatureHeader(signingSecrets(webhook.secrets, new Date(now)), timestamp, body),
        [WEBHOOK_HEADERS.delivery]: deliveryId,
        [WEBHOOK_HEADERS.webhook]: id,
        'user-agent': 'Herald-Webhooks/1',
      };
      const result: PostResult = await deps.post(webhook.url, body, headers).catch((error: unknown) => ({ ok: false, error: withoutAddresses((error as Error).message) }));
      if (result.ok) {
        status = { ...status, delivered_events: status.delivered_events + events.length, last_success_at: new Date(clock.now()) };
        deps.observer.delivered(id, events.length);
        return;
      }
      const failedAt = clock.now();
      firstFailureAt ??= failedAt;
      last = { attempt, failedAt, error: result.error, projectId: webhook.project_id };
      status = { ...status, failed_attempts: status.failed_attempts + 1, last_failure: { at: new Date(failedAt), error: result.error.slice(0, 500) } };
      dirty = true;
      deps.observer.failed(id, failedAt);
      logger.warn({ webhook_id: id, attempt, error: result.error, ...(result.detail === undefined ? {} : { detail: result.detail }) }, 'webhook request failed');
      throw new RequestFailed(result.error);
    };
    try {
      await retry(postOnce, { ...webhookRetry(deps.policy), clock, signal: stopping.signal, classify: (error) => error instanceof RequestFailed, onRetry: save });
      return 'done';
    } catch (error) {
      if (error instanceof RetryStopped) return 'stopped';
      if (!(error instanceof RequestFailed) || last === undefined || firstFailureAt === undefined) throw error;
    }
    // Failing for the whole dead-letter time: set the events aside and go on.
    await deps.store.addDeadLetter({
      _id: `${id}:${deliveryId}:${generation}`,
      webhook_id: id,
      project_id: last.projectId,
      event_ids: events.map((event) => event.id),
      error: last.error.slice(0, 500),
      attempts: last.attempt,
      first_failure_at: new Date(firstFailureAt),
      at: new Date(last.failedAt),
    }).catch((error: unknown) => {
      // A repeat of the same dead letter (after a restart) is already stored.
      if ((error as { code?: unknown }).code !== 11000) throw error;
    });
    status = { ...status, dead_letters: status.dead_letters + 1 };
    deps.observer.deadLettered(id);
    logger.error({ webhook_id: id, events: events.length, attempts: last.attempt }, 'webhook delivery dead-lettered');
    return 'done';
  };

  const flush = async () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (waiting.length === 0) return;
    const events = waiting;
    const upTo = structuredClone(read);
    if ((await deliver(events)) === 'stopped') return;
    waiting = [];
    waitingBytes = 0;
    oldestAt = undefined;
    delivered = upTo;
    dirty = true;
    await save();
  };

  const schedule = () => {
    const { batch } = deps.current();
    const delay = flushDelay(waiting.length, oldestAt, clock.now(), { maxEvents: batch.max_events, maxWaitMs: batch.max_wait_ms, maxBytes: WEBHOOK_BATCH_MAX_BYTES }, waitingBytes);
    if (delay === undefined || delay === 0 || timer !== undefined) return delay;
    timer = setTimeout(() => void serial(flush), delay);
    return delay;
  };

  const onRecord = (record: LogRecord) =>
    serial(async () => {
      if (stopping.signal.aborted) return;
      (read[record.topic] ??= {})[record.partition] = record.offset + 1;
      if (webhookWants(deps.current(), record.event)) {
        if (waiting.length === 0) oldestAt = clock.now();
        waiting.push(record.event);
        waitingBytes += record.value?.length ?? 0;
        if (schedule() === 0) await flush();
      } else if (waiting.length === 0) {
        delivered = structuredClone(read);
        dirty = true;
      }
    });

  const reader: LogReader = await openLogReader({
    kafka: deps.kafka,
    topics: WEBHOOK_TOPICS,
    from,
    purpose: `webhook.${id}`,
    onRecord,
    onProgress: (topic, partition, next) => {
      // Past transaction markers: nothing wanted lies there.
      void serial(async () => {
        if ((read[topic]?.[partition] ?? -1) < next) (read[topic] ??= {})[partition] = next;
        if (waiting.length === 0) {
          delivered = structuredClone(read);
          dirty = true;
        }
      });
    },
  });
  Object.assign(read, structuredClone(reader.start));
  delivered = structuredClone(read);
  const saver = setInterval(() => void serial(save), 1_000);
  return {
    generation,
    position: () => delivered,
    ready: reader.ready,
    async stop() {
      stopping.abort();
      clearInterval(saver);
      if (timer !== undefined) clearTimeout(timer);
      await reader.close();
      await chain;
      await save();
    },
  };
}

function withoutLag({ lag: _lag, ...rest }: WebhookStatus): Omit<WebhookStatus, 'lag'> {
  return rest;
}
