import type { DeviceDocument, Filter, ReadModelRegistry } from '@herald/mongo';
import type { EventProducer } from '@herald/kafka';
import type { AdminStore } from '@herald/admin';
import { NotFoundError } from '@herald/errors';
import { planRegistration, toDeviceView, type DeviceView, type RegisterDeviceInput } from '../domain/device-registration.ts';
import { planMetadataUpdate, type MetadataPatch } from '../domain/metadata-update.ts';
import { checkIdentifierHash } from '../domain/identity-verification.ts';
import { pageRequest, pagination, type Pagination } from '../domain/paging.ts';

export interface DeviceListQuery {
  limit?: number | undefined;
  page?: number | undefined;
  status?: 'active' | 'inactive' | undefined;
}

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

  async register(input: RegisterDeviceInput, correlationId?: string): Promise<DeviceView> {
    await this.#requireProject(input.project_id);
    const existing = await this.#continuedDevice(input);
    const { device, events } = planRegistration(input, existing ?? undefined, correlationId, new Date());
    await this.#producer.publish(events);
    return device;
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

  async list(projectId: string, query: DeviceListQuery): Promise<{ data: DeviceView[]; pagination: Pagination }> {
    const request = pageRequest(query);
    const filter: Filter<DeviceDocument> = { project_id: projectId };
    if (query.status !== undefined) filter.status = query.status;
    const devices = await this.#devices();
    const [count, docs] = await Promise.all([
      devices.countDocuments(filter),
      devices.find(filter).sort({ created_at: 1, _id: 1 }).skip(request.skip).limit(request.limit).toArray(),
    ]);
    return { data: docs.map(toDeviceView), pagination: pagination(request, count, docs.length) };
  }

  /**
   * Every device of the project whose id, token or any identifier value equals `identifier`.
   * `identifierHash` is checked before any device is looked up, so an unverified caller learns nothing about them.
   */
  async updateMetadata(
    projectId: string,
    identifier: string,
    patch: MetadataPatch,
    correlationId?: string,
    identifierHash?: string,
  ): Promise<DeviceView[]> {
    const verification = await this.#admin.identityVerification(projectId);
    if (verification === null) throw new NotFoundError(`project_id ${projectId} does not exist`);
    checkIdentifierHash(verification, identifier, identifierHash);
    const devices = await this.#devices();
    const matching = await devices
      .find({ project_id: projectId, $or: [{ _id: identifier }, { token: identifier }, { identifier_values: identifier }] })
      .sort({ created_at: 1, _id: 1 })
      .limit(1000)
      .toArray();
    if (matching.length === 0) throw new NotFoundError(`identifier ${identifier} matches no device in project ${projectId}`);
    const plan = planMetadataUpdate(matching, patch, correlationId, new Date());
    await this.#producer.publish(plan.events);
    return plan.devices;
  }
}
