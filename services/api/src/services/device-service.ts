import { countMatching, type Filter, type ReadModelRegistry } from '@herald/mongo';
import { deviceCountsOf, DEVICES_COUNT_KEY, readCounts, type CounterDocument, type DeviceCounts, type DeviceDocument, type TopicDocument } from '@herald/projections';
import type { EventProducer } from '@herald/kafka';
import type { AdminStore } from '@herald/admin';
import { createEvent, topicIdFor } from '@herald/events';
import { ForbiddenError, NotFoundError, ValidationError } from '@herald/errors';
import { planRegistration, toDeviceView, type DeviceView, type RegisterDeviceInput } from '../domain/device-registration.ts';
import { DEVICE_LIMITS } from '../domain/device-limits.ts';
import { planMetadataUpdate, type MetadataPatch } from '../domain/metadata-update.ts';
import { checkIdentifierHash, mayClaimExternalId } from '../domain/identity-verification.ts';
import { pageRequest, pagination, type Pagination } from '../domain/paging.ts';
import { mayRepointDevice } from '../domain/token-refresh.ts';
import { assertRoomForTopics } from './topic-quota.ts';
import { isTimeZone } from '@herald/runtime';

export interface DeviceListQuery {
  limit?: number | undefined;
  page?: number | undefined;
  status?: 'active' | 'inactive' | undefined;
  token?: string | undefined;
}

const UNREGISTERED = 'Unregistered';

/** Device commands become events on Kafka; device queries read the `devices` read model. */
export class DeviceService {
  readonly #producer: EventProducer;
  readonly #admin: AdminStore;
  readonly #readModels: ReadModelRegistry;

  constructor(deps: { producer: EventProducer; admin: AdminStore; readModels: ReadModelRegistry }) {
    this.#producer = deps.producer;
    this.#admin = deps.admin;
    this.#readModels = deps.readModels;
  }

  #devices() {
    return this.#readModels.collection<DeviceDocument>('devices');
  }

  async #requireProject(projectId: string): Promise<void> {
    if ((await this.#admin.findProject(projectId)) === null) throw new NotFoundError(`project_id ${projectId} does not exist`);
  }

  /**
   * `bearerProjectId`: the project of the caller's bearer key, if it sent one;
   * it proves a token refresh like `previous_token` does.
   */
  async register(input: RegisterDeviceInput, correlationId?: string, bearerProjectId?: string): Promise<DeviceView> {
    await this.#requireProject(input.project_id);
    const existing = await this.#continuedDevice(input);
    if (input.device_id !== undefined && existing !== null) {
      const claim = { currentToken: existing.token, newToken: input.token, previousToken: input.previous_token, bearerProjectId, projectId: input.project_id };
      if (!mayRepointDevice(claim)) {
        throw new ForbiddenError(
          "previous_token must equal the device's current token (or send the project's bearer key) to give device_id a new token",
        );
      }
    }
    if (input.timezone !== undefined && !isTimeZone(input.timezone)) throw new ValidationError([`timezone ${input.timezone} is not an IANA time zone name (e.g. Europe/Paris)`]);
    if (input.external_id !== undefined) await this.#checkExternalIdClaim(input, existing ?? undefined, bearerProjectId);
    if (input.topics !== undefined) {
      const topics = await this.#readModels.collection<TopicDocument>('topics');
      await assertRoomForTopics(topics, input.project_id, [...new Set(input.topics)].map((name) => topicIdFor(input.project_id, name)));
    }
    const { device, events } = planRegistration(input, existing ?? undefined, correlationId, new Date());
    await this.#producer.publish(events);
    return device;
  }

  async #checkExternalIdClaim(input: RegisterDeviceInput, existing: DeviceDocument | undefined, bearerProjectId: string | undefined): Promise<void> {
    const verification = await this.#admin.identityVerification(input.project_id);
    const claim = {
      externalId: input.external_id!,
      externalIdHash: input.external_id_hash,
      current: existing?.external_id,
      bearerProjectId,
      projectId: input.project_id,
      verification: verification ?? { enabled: false as const },
    };
    if (!mayClaimExternalId(claim)) {
      throw new ForbiddenError(
        "external_id needs proof that the caller may speak for that user: the project's bearer key, or (with identity verification on) external_id_hash, the HMAC-SHA256 of external_id under the device-auth secret",
      );
    }
  }

  /** A device of the project; 404 when it is not the project's. */
  async get(projectId: string, deviceId: string): Promise<DeviceView> {
    const device = await (await this.#devices()).findOne({ _id: deviceId, project_id: projectId });
    if (device === null) throw new NotFoundError(`device ${deviceId} does not exist in project ${projectId}`);
    return toDeviceView(device);
  }

  /** Publishes DeviceUnregistered; a device already unregistered is left as it is. */
  async unregister(projectId: string, deviceId: string, correlationId?: string): Promise<void> {
    const device = await (await this.#devices()).findOne({ _id: deviceId, project_id: projectId });
    if (device === null) throw new NotFoundError(`device ${deviceId} does not exist in project ${projectId}`);
    if (device.status === 'inactive' && device.deactivation?.reason === UNREGISTERED) return;
    await this.#producer.publish([createEvent('DeviceUnregistered', { device_id: deviceId }, { project_id: projectId, correlation_id: correlationId })]);
  }

  /** The device a registration continues: named by a token refresh, or already holding the token. */
  async #continuedDevice(input: RegisterDeviceInput): Promise<DeviceDocument | null> {
    const devices = await this.#devices();
    if (input.device_id !== undefined) {
      const named = await devices.findOne({ _id: input.device_id, project_id: input.project_id });
      if (named === null) throw new NotFoundError(`device_id ${input.device_id} does not exist in this project`);
      return named;
    }
    return devices.findOne({ project_id: input.project_id, token: input.token });
  }

  /**
   * A page of the project's devices, oldest first. The count comes from the
   * counters the projector keeps (a few small documents, whatever the
   * project holds); by token it is counted, at most a handful.
   */
  async list(projectId: string, query: DeviceListQuery): Promise<{ data: DeviceView[]; pagination: Pagination }> {
    const request = pageRequest(query);
    const filter: Filter<DeviceDocument> = { project_id: projectId };
    if (query.status !== undefined) filter.status = query.status;
    if (query.token !== undefined) filter.token = query.token;
    const devices = await this.#devices();
    const counted = async () => {
      if (query.token !== undefined) return countMatching(devices, filter);
      const { ios, android } = await this.counts(projectId);
      const statuses: ReadonlyArray<'active' | 'inactive'> = query.status === undefined ? ['active', 'inactive'] : [query.status];
      return statuses.reduce((sum, status) => sum + ios[status] + android[status], 0);
    };
    const [count, docs] = await Promise.all([counted(), devices.find(filter).sort({ created_at: 1, _id: 1 }).skip(request.skip).limit(request.limit).toArray()]);
    return { data: docs.map(toDeviceView), pagination: pagination(request, count, docs.length) };
  }

  /** The project's devices by platform and status, from the projector's counters (libs/projections device-counts.ts). */
  async counts(projectId: string): Promise<DeviceCounts> {
    const counters = await this.#readModels.countsCollection<CounterDocument>('devices');
    return deviceCountsOf((await readCounts(counters, projectId, [DEVICES_COUNT_KEY])).get(DEVICES_COUNT_KEY));
  }

  /**
   * Merges `patch` into every device of the project whose id, token or any
   * identifier value equals `identifier`; answers how many. At most 100
   * devices: an identifier shared by more is refused rather than fanned out
   * (one anonymous call must not write without bound). `identifierHash` is
   * checked before any device is looked up, so an unverified caller learns
   * nothing about them.
   */
  async updateMetadata(
    projectId: string,
    identifier: string,
    patch: MetadataPatch,
    correlationId?: string,
    identifierHash?: string,
  ): Promise<{ updated: number }> {
    const verification = await this.#admin.identityVerification(projectId);
    if (verification === null) throw new NotFoundError(`project_id ${projectId} does not exist`);
    checkIdentifierHash(verification, identifier, identifierHash);
    const devices = await this.#devices();
    const limit = DEVICE_LIMITS.identifierMatches;
    const matching = await devices
      .find({ project_id: projectId, $or: [{ _id: identifier }, { token: identifier }, { identifier_values: identifier }, { external_id: identifier }] })
      .project<Pick<DeviceDocument, '_id' | 'project_id' | 'metadata'>>({ _id: 1, project_id: 1, metadata: 1 })
      .limit(limit + 1)
      .toArray();
    if (matching.length === 0) throw new NotFoundError(`identifier ${identifier} matches no device in project ${projectId}`);
    if (matching.length > limit) throw new ValidationError([`identifier matches more than ${limit} devices; update them in smaller groups`]);
    const plan = planMetadataUpdate(matching, patch, correlationId, new Date());
    if (plan.kind === 'refused') throw new ValidationError([plan.problem]);
    await this.#producer.publish(plan.events);
    return { updated: plan.updated };
  }
}
