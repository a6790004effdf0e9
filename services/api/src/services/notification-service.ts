import { createEvent, newId } from '@herald/events';
import { segmentLookupOf, targetProblems } from '@herald/audience';
import type { SegmentService } from './segment-service.ts';
import { DeviceQueries, isTransientMongoError, NotificationQueries, type NotificationSearch, type ReadModelRegistry } from '@herald/mongo';
import { audienceEstimateOf, FINISHED_STATUSES, notificationCountOf, type NotificationDocument, type NotificationStatus, steerNotification } from '@herald/read-models';
import type { EventProducer } from '@herald/kafka';
import { requestHash, type IdempotencyStore } from '@herald/admin';
import { AppError, NotFoundError, UnprocessableError } from '@herald/errors';
import type { Logger } from '@herald/log';
import { pageRequest, pagination, type PageRequest, type Pagination } from '../domain/paging.ts';
import { checkedRange, SEARCH_COUNT_LIMIT } from '../domain/notification-search.ts';
import type { ReceiptView } from '../domain/receipts.ts';
import { laneProblems, pushOptionProblems, scheduleProblems } from '../schemas/push-options.ts';
import { systemClock, type Clock } from '@herald/runtime';
import { audienceSize, audienceTotal, type AudienceSize } from './audience-size.ts';
import { AcceptedHere, findJustSent, mergeUnprojected } from '../domain/just-sent.ts';
import { contentProblems, pinnedSizeProblems } from '../domain/template-send.ts';
import type { TemplateService } from './template-service.ts';
import type { PinnedSegment, PinnedTemplate, SplitVariant } from '@herald/events';
import { splitProblems } from '../domain/split-send.ts';
import { acceptedView, checkedTargets, isPaced, notificationView, paceView, requestedEvent, sizeProblems, testSendProblems, variantSizeProblems, type NotificationInput, type NotificationView } from '../domain/notification-request.ts';
import { SendPinning } from './send-pinning.ts';
import { NotificationReceipts, type ReceiptQuery } from './notification-receipts.ts';

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const FOREVER = Number.POSITIVE_INFINITY;

export class NotificationService {
  readonly #producer: EventProducer;
  readonly #readModels: ReadModelRegistry;
  readonly #idempotency: IdempotencyStore;
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #accepted: AcceptedHere;
  readonly #notifications: NotificationQueries;
  readonly #devices: DeviceQueries;
  readonly #pinning: SendPinning;
  readonly #receipts: NotificationReceipts;

  constructor(deps: { producer: EventProducer; readModels: ReadModelRegistry; idempotency: IdempotencyStore; logger: Logger; clock: Clock; accepted?: AcceptedHere; templates?: Pick<TemplateService, 'pin'>; segments?: Pick<SegmentService, 'pin'> }) {
    this.#pinning = new SendPinning(deps);
    this.#receipts = new NotificationReceipts(deps.readModels);
    this.#accepted = deps.accepted ?? new AcceptedHere();
    this.#clock = deps.clock;
    this.#producer = deps.producer;
    this.#readModels = deps.readModels;
    this.#notifications = new NotificationQueries(deps.readModels);
    this.#devices = new DeviceQueries(deps.readModels);
    this.#idempotency = deps.idempotency;
    this.#logger = deps.logger;
  }

  /** Validates what the schema cannot, then emits NotificationRequested; with a key, at most once per 24 h. */
  async send(projectId: string, input: NotificationInput, schemaProblems: readonly string[], idempotencyKey: string | undefined, correlationId?: string, replaces?: string): Promise<NotificationView> {
    const notificationId = newId();
    const pinned = await this.#pinning.content(projectId, input);
    const segments = await this.#pinning.segments(projectId, input);
    this.#check(projectId, input, [...schemaProblems, ...pinned.problems, ...segments.problems], notificationId);
    // An edit is checked whole before the send it replaces is touched: a refused edit leaves it scheduled.
    const replaced = replaces === undefined ? undefined : await this.#scheduled(projectId, replaces);
    const publish = () => this.#publish(projectId, input, notificationId, correlationId, pinned.template, segments.segments, pinned.variants, replaced);
    if (idempotencyKey === undefined) return publish();

    const claim = await this.#idempotency.claim<NotificationView>(`send:${projectId}:${replaces === undefined ? '' : `replace:${replaces}:`}${idempotencyKey}`, requestHash(input), IDEMPOTENCY_WINDOW_MS);
    switch (claim.kind) {
      case 'done':
        return claim.result;
      case 'pending':
        throw new AppError('CONFLICT', 'a request with this Idempotency-Key is still in progress; retry shortly');
      case 'claimed':
        return this.#once(claim.id, publish);
    }
  }

  /** The notification an edit replaces: still scheduled (409 once it fired, was cancelled or replaced). */
  async #scheduled(projectId: string, id: string): Promise<NotificationDocument> {
    const doc = await this.#find(projectId, id);
    if (doc.status !== 'scheduled') throw new AppError('CONFLICT', `notification ${id} is ${doc.status}: only a notification still scheduled can be edited or rescheduled`);
    return doc;
  }

  /** Every problem with a send request at once (422), as a send checks it. */
  #check(projectId: string, input: NotificationInput, schemaProblems: readonly string[], notificationId: string): void {
    // A notification that is no object has only the schema's problems: the checks below read its fields.
    const given: unknown = input;
    if (typeof given !== 'object' || given === null) throw new UnprocessableError(schemaProblems.length > 0 ? [...schemaProblems] : ['notification must be an object']);
    const problems = [
      ...schemaProblems,
      ...(input?.variants === undefined ? contentProblems(input) : []),
      ...splitProblems(input),
      ...targetProblems(input?.targets),
      ...pushOptionProblems(input),
      ...scheduleProblems(input, this.#clock.now()),
      ...laneProblems(input),
      ...sizeProblems(input, notificationId, projectId),
      ...variantSizeProblems(input, notificationId, projectId),
      ...testSendProblems(input),
    ];
    if (problems.length > 0) throw new UnprocessableError(problems);
  }

  /** Checks a send request as `send` does, then counts the devices it would reach now; publishes nothing. */
  async dryRun(projectId: string, input: NotificationInput, schemaProblems: readonly string[]): Promise<{ total: number; by_platform: AudienceSize }> {
    const segments = await this.#pinning.segments(projectId, input);
    this.#check(projectId, input, [...schemaProblems, ...(await this.#pinning.content(projectId, input)).problems, ...segments.problems], newId());
    const byPlatform = await audienceSize(this.#readModels, projectId, checkedTargets(input), segmentLookupOf(segments.segments)).catch((error: unknown) => {
      // A filter the store refuses (e.g. a metadata key it cannot use as a path) is the request's problem, not a 500.
      if (error instanceof Error && error.name === 'MongoServerError' && !isTransientMongoError(error)) {
        throw new UnprocessableError(['notification.targets cannot be evaluated by the store (check the metadata filter keys)']);
      }
      throw error;
    });
    return { total: audienceTotal(byPlatform), by_platform: byPlatform };
  }

  /**
   * Runs `publish` for a claimed key: a failure releases the claim so a retry
   * can go ahead; success records the result. Once Kafka has the event the
   * client must hear success: if the result cannot be recorded the key stays
   * pending (repeats are refused until it expires), which never duplicates.
   */
  async #once<T>(claimId: string, publish: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await publish();
    } catch (error) {
      await this.#idempotency.release(claimId);
      throw error;
    }
    await this.#idempotency.complete(claimId, result).catch((error: unknown) => {
      this.#logger.warn({ err: error, key: claimId }, 'could not record the idempotency key result');
    });
    return result;
  }

  async #publish(projectId: string, input: NotificationInput, notificationId: string, correlationId: string | undefined, template?: PinnedTemplate, segments?: readonly PinnedSegment[], variants?: SplitVariant[], replaced?: NotificationDocument): Promise<NotificationView> {
    const requested = requestedEvent(input, notificationId, projectId, correlationId, new Date(), template, segments, variants);
    const event = replaced === undefined ? requested : { ...requested, data: { ...requested.data, replaces: replaced._id } };
    if (template !== undefined || variants !== undefined) {
      const problems = pinnedSizeProblems(event);
      if (problems.length > 0) throw new UnprocessableError(problems);
    }
    // An edit: the old send's cancel and the new request go out in one publish, the cancel first.
    const cancelled = replaced === undefined ? undefined : createEvent('NotificationCancelled', { notification_id: replaced._id }, { project_id: projectId, correlation_id: correlationId });
    await this.#producer.publish(cancelled === undefined ? [event] : [cancelled, event]);
    if (replaced !== undefined && cancelled !== undefined) this.#accepted.changed({ ...replaced, status: 'cancelled', finished_at: cancelled.occurred_at });
    this.#accepted.accepted(event);
    return acceptedView(event);
  }

  /** A paced or paused send also shows its rate, progress and ETA (against the audience its fan-out counted: AudienceEstimated). */
  async get(projectId: string, id: string): Promise<NotificationView> {
    const doc = await this.#find(projectId, id);
    return notificationView(doc, this.#pace(doc));
  }

  #pace(doc: NotificationDocument): NotificationView['pace'] {
    if (!isPaced(doc)) return undefined;
    return paceView(doc, audienceEstimateOf(doc), this.#clock.now());
  }

  /**
   * Pauses, resumes or re-paces a notification in flight: publishes
   * NotificationSteered (the fan-out turns it into a control record every
   * delivery instance follows). A finished notification is a conflict.
   */
  async steer(projectId: string, id: string, change: { state?: 'paused' | 'sending' | undefined; rate_per_minute?: number | undefined }, correlationId?: string): Promise<NotificationView> {
    if (change.state === undefined && change.rate_per_minute === undefined) throw new UnprocessableError(['body must set state ("paused" or "sending") and/or rate_per_minute']);
    const doc = await this.#find(projectId, id);
    if (FINISHED_STATUSES.includes(doc.status)) {
      throw new AppError('CONFLICT', `notification ${id} has already finished (status ${doc.status}): only a notification still scheduled, queued, sending or paused can be steered`);
    }
    if (change.rate_per_minute !== undefined && doc.options?.priority_lane === 'transactional') {
      throw new UnprocessableError(['rate_per_minute cannot be set on a priority_lane "transactional" notification (transactional sends are never paced)']);
    }
    const data = { notification_id: id, ...(change.state === undefined ? {} : { state: change.state }), ...(change.rate_per_minute === undefined ? {} : { rate_per_minute: change.rate_per_minute }) };
    await this.#producer.publish([createEvent('NotificationSteered', data, { project_id: projectId, correlation_id: correlationId })]);
    const steered = steerNotification(doc, change, new Date().toISOString());
    this.#accepted.changed(steered);
    return notificationView(steered, this.#pace(steered));
  }

  /**
   * Publishes NotificationCancelled unless the notification finished: sent
   * or expired is a conflict, cancelled already is a harmless repeat. The
   * answer shows it cancelled; the read model follows the event.
   */
  async cancel(projectId: string, id: string, correlationId?: string): Promise<NotificationView> {
    const doc = await this.#find(projectId, id);
    if (doc.status === 'cancelled') return notificationView(doc);
    if (FINISHED_STATUSES.includes(doc.status)) {
      throw new AppError('CONFLICT', `notification ${id} has already finished (status ${doc.status}): only a notification still scheduled, queued or sending can be cancelled`);
    }
    const cancelled = createEvent('NotificationCancelled', { notification_id: id }, { project_id: projectId, correlation_id: correlationId });
    await this.#producer.publish([cancelled]);
    const answered: NotificationDocument = { ...doc, status: 'cancelled', finished_at: cancelled.occurred_at };
    this.#accepted.changed(answered);
    return notificationView(answered);
  }

  /**
   * Newest first, optionally one status; paged like every listing. The count
   * comes from the projector's counters (notification-counts.ts). What this
   * instance accepted and the read model does not have yet is listed as a
   * read by id shows it (`#find`): a send answered `scheduled` a moment ago
   * is listed under `scheduled` too.
   */
  async list(projectId: string, query: NotificationSearch & { page?: number | undefined; limit?: number | undefined }): Promise<{ data: NotificationView[]; pagination: Pagination }> {
    const request = pageRequest(query);
    if (query.q !== undefined || query.created_from !== undefined || query.created_to !== undefined || query.outcome !== undefined) return this.#search(projectId, query, request);
    const includeTests = query.include_tests === true;
    const unprojected = (await this.#unprojected(projectId, query.status)).filter((doc) => includeTests || doc.test_send !== true);
    const windowStart = Math.max(0, request.skip - unprojected.length);
    const [counts, window] = await Promise.all([
      this.#notifications.notificationCounts(projectId, includeTests),
      this.#notifications.notificationPage(projectId, query.status, { skip: windowStart, limit: request.skip + request.limit - windowStart }, includeTests),
    ]);
    const docs = unprojected.length === 0 ? window : mergeUnprojected(window, windowStart, unprojected, request.skip, request.limit);
    const count = notificationCountOf(counts, query.status) + unprojected.length;
    return { data: docs.map((doc) => notificationView(doc)), pagination: pagination(request, count, docs.length) };
  }

  /**
   * A search reads the read model only: a send accepted a moment ago shows
   * once projected (the plain list shows it at once). Counted by the store,
   * up to SEARCH_COUNT_LIMIT (a title search reads every row of its range).
   */
  async #search(projectId: string, query: NotificationSearch, request: PageRequest): Promise<{ data: NotificationView[]; pagination: Pagination }> {
    const range = checkedRange(query.created_from, query.created_to);
    const search = { ...query, ...range };
    const [count, docs] = await Promise.all([this.#notifications.searchCount(projectId, search, SEARCH_COUNT_LIMIT), this.#notifications.searchPage(projectId, search, request)]);
    return { data: docs.map((doc) => notificationView(doc)), pagination: pagination(request, count, docs.length) };
  }

  /** What this instance accepted (in `status`) that the read model has no document for yet, newest first. */
  async #unprojected(projectId: string, status: NotificationStatus | undefined): Promise<NotificationDocument[]> {
    const remembered = this.#accepted.list(projectId, status);
    if (remembered.length === 0) return [];
    const inStore = await this.#notifications.storedIds(projectId, remembered.map((doc) => doc._id));
    return remembered.filter((doc) => !inStore.has(doc._id));
  }

  /** A notification's receipts, page by page (notification-receipts.ts). */
  async receipts(projectId: string, id: string, query: ReceiptQuery): Promise<{ data: ReceiptView[]; pagination: Pagination }> {
    await this.#find(projectId, id);
    return this.#receipts.ofNotification(projectId, id, query);
  }

  /** A device's receipts, newest first: one per batch (so per notification) that holds it. */
  async deviceReceipts(projectId: string, deviceId: string, query: ReceiptQuery): Promise<{ data: ReceiptView[]; pagination: Pagination }> {
    return this.#receipts.ofDevice(projectId, deviceId, query);
  }

  /**
   * The notification as its read model has it; one this instance accepted a
   * moment ago as it accepted it, and one another instance did is waited
   * for briefly (just-sent.ts).
   */
  async #find(projectId: string, id: string): Promise<NotificationDocument> {
    // Ids are minted on the system clock (uuid v7), whatever clock the service decides schedules by.
    const doc = await findJustSent(id, () => this.#notifications.notification(projectId, id), systemClock, () => this.#accepted.find(projectId, id));
    if (doc === null) throw new NotFoundError(`notification ${id} does not exist in project ${projectId}`);
    return doc;
  }

  /** Records one open per (notification, device); repeats succeed and record nothing. */
  async open(id: string, body: { project_id: string; token: string }, correlationId?: string): Promise<void> {
    const notification = await this.#find(body.project_id, id);
    const device = await this.#devices.deviceByToken(body.project_id, body.token);
    const delivery = device === null ? undefined : await this.#receipts.deliveredLine(notification._id, device._id);
    if (device === null || delivery === undefined) throw new NotFoundError(`token is not a recipient of notification ${id}`);
    const claim = await this.#idempotency.claim(`open:${id}:${device._id}`, 'open', FOREVER);
    if (claim.kind !== 'claimed') return;
    // The variant and locale its delivery named travel with the open, so analytics and the A/B decision need no join.
    const { batch_id: batchId, line } = delivery;
    const content = { ...(line.variant === undefined ? {} : { variant: line.variant }), ...(line.locale === undefined ? {} : { locale: line.locale }) };
    const opened = createEvent('NotificationOpened', { notification_id: id, device_id: device._id, batch_id: batchId, ...content }, { project_id: body.project_id, correlation_id: correlationId });
    await this.#once(claim.id, async () => {
      await this.#producer.publish([opened]);
      return null;
    });
  }
}
