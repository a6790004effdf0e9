import { createEvent, newId } from '@herald/events';
import type { DeliveryLedgerDocument, DeviceDocument, NotificationDocument, ReadModelRegistry } from '@herald/mongo';
import type { EventProducer } from '@herald/kafka';
import { requestHash, type IdempotencyStore } from '@herald/admin';
import { AppError, NotFoundError, UnprocessableError } from '@herald/errors';
import type { Logger } from '@herald/log';
import { acceptedView, notificationView, requestedEvent, sizeProblems, type NotificationInput, type NotificationView } from '../domain/notification-request.ts';

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const FOREVER = Number.POSITIVE_INFINITY;

export class NotificationService {
  readonly #producer: EventProducer;
  readonly #readModels: ReadModelRegistry;
  readonly #idempotency: IdempotencyStore;
  readonly #logger: Logger;

  constructor(deps: { producer: EventProducer; readModels: ReadModelRegistry; idempotency: IdempotencyStore; logger: Logger }) {
    this.#producer = deps.producer;
    this.#readModels = deps.readModels;
    this.#idempotency = deps.idempotency;
    this.#logger = deps.logger;
  }

  /** Validates what the schema cannot, then emits NotificationRequested; with a key, at most once per 24 h. */
  async send(projectId: string, input: NotificationInput, schemaProblems: readonly string[], idempotencyKey: string | undefined, correlationId?: string): Promise<NotificationView> {
    const notificationId = newId();
    const problems = [...schemaProblems, ...sizeProblems(input, notificationId, projectId)];
    if (problems.length > 0) throw new UnprocessableError(problems);
    if (idempotencyKey === undefined) return this.#publish(projectId, input, notificationId, correlationId);

    const claim = await this.#idempotency.claim<NotificationView>(`send:${projectId}:${idempotencyKey}`, requestHash(input), IDEMPOTENCY_WINDOW_MS);
    switch (claim.kind) {
      case 'done':
        return claim.result;
      case 'pending':
        throw new AppError('CONFLICT', 'a request with this Idempotency-Key is still in progress; retry shortly');
      case 'claimed':
        return this.#once(claim.id, () => this.#publish(projectId, input, notificationId, correlationId));
    }
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

  async #publish(projectId: string, input: NotificationInput, notificationId: string, correlationId: string | undefined): Promise<NotificationView> {
    const event = requestedEvent(input, notificationId, projectId, correlationId, new Date());
    await this.#producer.publish([event]);
    return acceptedView(event);
  }

  async get(projectId: string, id: string): Promise<NotificationView> {
    return notificationView(await this.#find(projectId, id));
  }

  async #find(projectId: string, id: string): Promise<NotificationDocument> {
    const notifications = await this.#readModels.collection<NotificationDocument>('notifications');
    const doc = await notifications.findOne({ _id: id, project_id: projectId });
    if (doc === null) throw new NotFoundError(`notification ${id} does not exist in project ${projectId}`);
    return doc;
  }

  /** Records one open per (notification, device); repeats succeed and record nothing. */
  async open(id: string, body: { project_id: string; token: string }, correlationId?: string): Promise<void> {
    const notification = await this.#find(body.project_id, id);
    const devices = await this.#readModels.collection<DeviceDocument>('devices');
    const device = await devices.findOne({ project_id: body.project_id, token: body.token });
    const batchId = device === null ? undefined : await this.#deliveredIn(notification, device);
    if (device === null || batchId === undefined) throw new NotFoundError(`token is not a recipient of notification ${id}`);
    const claim = await this.#idempotency.claim(`open:${id}:${device._id}`, 'open', FOREVER);
    if (claim.kind !== 'claimed') return;
    const opened = createEvent('NotificationOpened', { notification_id: id, device_id: device._id, batch_id: batchId }, { project_id: body.project_id, correlation_id: correlationId });
    await this.#once(claim.id, async () => {
      await this.#producer.publish([opened]);
      return null;
    });
  }

  /**
   * A recipient is a device the notification was delivered to: the delivery
   * ledger (one document per batch) has a delivered line for it. Returns that
   * batch's id, which the open event carries so the ledger marks the open by
   * `_id`. Indexed by {notification_id, devices.device_id} (multikey).
   */
  async #deliveredIn(notification: NotificationDocument, device: DeviceDocument): Promise<string | undefined> {
    const ledger = await this.#readModels.collection<DeliveryLedgerDocument>('delivery_ledger');
    const batches = await ledger.find({ notification_id: notification._id, 'devices.device_id': device._id }).toArray();
    const delivered = batches.find((batch) => batch.devices.some((line) => line.device_id === device._id && line.outcome === 'delivered'));
    return delivered?._id;
  }
}
