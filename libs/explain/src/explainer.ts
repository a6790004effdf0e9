import { NotFoundError } from '@herald/errors';
import { ConcurrencyLimit } from './concurrency-limit.ts';
import { deviceIdFor, TOPICS, type FanoutTaskV2, type NotificationRequestedV2 } from '@herald/events';
import { conditionTopicIds } from '@herald/audience';
import type { HeraldKafka, LogRecord } from '@herald/kafka';
import { DeviceQueries, LedgerQueries, NotificationQueries, TopicQueries, type ReadModelRegistry } from '@herald/mongo';
import { deviceAt, deviceTimeline } from './device-timeline.ts';
import { explainReach } from './explain-reach.ts';
import { liveActivityFacts, type LiveActivityFact, type LiveActivitySendFacts } from './live-activity-facts.ts';
import { devicePartition, readFacts, uuidV7Time, type FactQuery } from './log-facts.ts';
import { notificationFacts } from './notification-facts.ts';
import type { ExplainLimits, NotificationFacts, ReachExplanation, TimelineEntry } from './types.ts';

/** Bounds for the API (docs/reference/explain.md): what one bearer-key request may cost. */
export const API_EXPLAIN_LIMITS: ExplainLimits = { maxRecords: 200_000, timeoutMs: 15_000, perProject: 1, total: 4, notifications: 20 };

export interface DeviceExplanation {
  device_id: string;
  project_id: string;
  partition: number;
  status: 'active' | 'inactive';
  token: string;
  timeline: TimelineEntry[];
  /** The notifications whose events were read for receipts and opens (the device's most recent, from the delivery ledger). */
  notifications: string[];
  /** Its most recent Live Activity pushes and what each came to (empty where the explainer has no store of them: the CLI). */
  live_activities: LiveActivityFact[];
  scanned_records: number;
}

export interface NotificationExplanation {
  notification: NotificationFacts;
  device: ReachExplanation | null;
  scanned_records: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const keyOf = (record: LogRecord) => record.key?.toString() ?? '';

/**
 * Explain answers from the log (the one log reader, bounded by `limits`):
 * a device's timeline and why a device was or was not reached. The read
 * models are used only to know where to look: the device's first
 * registration time (where in its partition to start) and the delivery
 * ledger's list of its notifications. `projectId` undefined: the operator,
 * any project (the CLI).
 */
export class Explainer {
  readonly #kafka: HeraldKafka;
  readonly #devices: DeviceQueries;
  readonly #liveActivitySends: ((projectId: string, deviceId: string) => Promise<readonly LiveActivitySendFacts[]>) | undefined;
  readonly #ledger: LedgerQueries;
  readonly #topics: TopicQueries;
  readonly #notifications: NotificationQueries;
  readonly #limits: ExplainLimits;
  readonly #limit: ConcurrencyLimit;
  readonly #knownOnly: boolean;
  readonly #acceptedHere: ((projectId: string, notificationId: string) => boolean) | undefined;

  /**
   * `knownOnly` (the API): an id the read models do not hold for the project answers 404 before the log is
   * read, so a caller cannot make the server scan a partition for a device or notification that is not theirs.
   * A notification `acceptedHere` says the caller's API instance accepted a moment ago counts as held (the
   * notifications read model may not have it yet).
   */
  constructor(deps: {
    kafka: HeraldKafka;
    readModels: ReadModelRegistry;
    limits: ExplainLimits;
    knownOnly?: boolean;
    acceptedHere?: (projectId: string, notificationId: string) => boolean;
    /** A device's most recent Live Activity push documents (live_activity_sends), newest first. */
    liveActivitySends?: (projectId: string, deviceId: string) => Promise<readonly LiveActivitySendFacts[]>;
  }) {
    this.#liveActivitySends = deps.liveActivitySends;
    this.#acceptedHere = deps.acceptedHere;
    this.#kafka = deps.kafka;
    this.#devices = new DeviceQueries(deps.readModels);
    this.#ledger = new LedgerQueries(deps.readModels);
    this.#topics = new TopicQueries(deps.readModels);
    this.#notifications = new NotificationQueries(deps.readModels);
    this.#limits = deps.limits;
    this.#knownOnly = deps.knownOnly ?? false;
    this.#limit = new ConcurrencyLimit({ perKey: deps.limits.perProject, total: deps.limits.total });
  }

  async device(projectId: string | undefined, idOrToken: string): Promise<DeviceExplanation> {
    return this.#bounded(projectId, async () => {
      const stored = await this.#devices.deviceByIdOrToken(projectId, UUID.test(idOrToken) ? { id: idOrToken } : { token: idOrToken });
      if (stored === null && this.#knownOnly) throw notFound('device', idOrToken, projectId);
      const deviceId = stored?._id ?? (UUID.test(idOrToken) || projectId === undefined ? idOrToken : deviceIdFor(projectId, idOrToken));
      const recent = await this.#ledger.recentNotificationIds(projectId, deviceId, this.#limits.notifications * 4);
      const notifications = [...new Set(recent)].slice(0, this.#limits.notifications);
      const read = await readFacts(
        this.#kafka,
        [
          { topic: TOPICS.deviceEvents, key: deviceId, sinceMs: stored === null ? undefined : Date.parse(stored.created_at) },
          ...notifications.map((id) => ({ topic: TOPICS.notificationEvents, key: id, sinceMs: uuidV7Time(id) })),
        ],
        this.#limits,
      );
      const [deviceRecords = [], ...notificationRecords] = read.records;
      const state = deviceAt(deviceRecords, deviceId);
      if (state === undefined || (projectId !== undefined && state.project_id !== projectId)) throw notFound('device', idOrToken, projectId);
      const own = notificationRecords.flat().filter((record) => record.event.project_id === state.project_id);
      const liveActivities = this.#liveActivitySends === undefined ? [] : liveActivityFacts(await this.#liveActivitySends(state.project_id, deviceId), deviceId);
      return {
        device_id: deviceId,
        project_id: state.project_id,
        partition: devicePartition(deviceId, read.deviceEventsPartitions),
        status: state.status,
        token: state.token,
        timeline: deviceTimeline(deviceRecords, own, deviceId),
        notifications,
        live_activities: liveActivities,
        scanned_records: read.scanned,
      };
    });
  }

  async notification(projectId: string | undefined, notificationId: string, deviceId?: string): Promise<NotificationExplanation> {
    return this.#bounded(projectId, async () => {
      if (this.#knownOnly) await this.#requireKnown(projectId, notificationId, deviceId);
      const since = uuidV7Time(notificationId);
      const queries: FactQuery[] = [{ topic: TOPICS.notificationEvents, key: notificationId, sinceMs: since }];
      if (deviceId !== undefined) {
        const createdAt = await this.#devices.deviceCreatedAt(deviceId);
        queries.push(
          { topic: TOPICS.deviceEvents, key: deviceId, sinceMs: createdAt === undefined ? undefined : Date.parse(createdAt) },
          // Step 0 of each of its fan-out tasks on the device's partition (keyed by fan-out id: the id, or `<id>@<slot>`).
          { topic: TOPICS.fanoutTasks, key: notificationId, sinceMs: since, partitionKey: deviceId, keep: (record) => isTaskOf(record, notificationId) },
        );
      }
      const read = await readFacts(this.#kafka, queries, this.#limits);
      const [notificationRecords = [], deviceRecords = [], taskRecords = []] = read.records;
      const requested = notificationRecords.find((record) => record.event.type === 'NotificationRequested')?.event as NotificationRequestedV2 | undefined;
      if (requested === undefined || (projectId !== undefined && requested.project_id !== projectId)) {
        throw notFound('notification', notificationId, projectId);
      }
      const notification = notificationFacts(requested, notificationRecords);
      if (deviceId === undefined) return { notification, device: null, scanned_records: read.scanned };
      const state = deviceAt(deviceRecords, deviceId);
      if (state === undefined || state.project_id !== requested.project_id) throw notFound('device', deviceId, requested.project_id);
      const partition = devicePartition(deviceId, read.deviceEventsPartitions);
      const tasks = taskRecords
        .map((record) => record.event as FanoutTaskV2)
        .filter((task) => task.data.step === 0 && task.data.partition === partition && task.data.forwarded !== true);
      const topicName = await this.#topicNames(requested.project_id, [
        ...tasks.flatMap((task) => [...task.data.audience.topic_ids, ...(task.data.audience.expressions ?? []).flatMap(conditionTopicIds)]),
        ...deviceRecords.flatMap((record) => (record.event.type === 'DeviceRegistered' ? (record.event.data.topic_ids ?? []) : [])),
      ]);
      const device = explainReach({ projectId: requested.project_id, deviceId, partition, request: requested, notificationRecords, tasks, deviceRecords, topicName });
      return { notification, device, scanned_records: read.scanned };
    });
  }

  /** Topic names for the ids an answer mentions (the topics read model; an id it does not know stays an id). */
  async #topicNames(projectId: string, ids: readonly string[]): Promise<(id: string) => string> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return (id) => id;
    const names = await this.#topics.topicNames(projectId, unique);
    return (id) => names.get(id) ?? id;
  }

  async #requireKnown(projectId: string | undefined, notificationId: string, deviceId: string | undefined): Promise<void> {
    const accepted = projectId !== undefined && this.#acceptedHere?.(projectId, notificationId) === true;
    if (!accepted && !(await this.#notifications.notificationExists(projectId, notificationId))) throw notFound('notification', notificationId, projectId);
    if (deviceId === undefined) return;
    if (!(await this.#devices.deviceExists(projectId, deviceId))) throw notFound('device', deviceId, projectId);
  }

  /** Each explain reads the log: a caller must not pile them up (429 past the bounds). */
  #bounded<T>(projectId: string | undefined, work: () => Promise<T>): Promise<T> {
    return this.#limit.run(projectId ?? '', 'explain', work);
  }
}

function notFound(kind: 'device' | 'notification', id: string, projectId: string | undefined): NotFoundError {
  return new NotFoundError(`${kind} ${id} does not exist${projectId === undefined ? '' : ` in project ${projectId}`}`);
}

function isTaskOf(record: LogRecord, notificationId: string): boolean {
  const key = keyOf(record);
  return record.event?.type === 'FanoutTask' && (key === notificationId || key.startsWith(`${notificationId}@`));
}
