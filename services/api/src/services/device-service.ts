import type { Collection, Db, DeviceDocument, Filter } from '@herald/mongo';
import { READ_MODELS } from '@herald/mongo';
import type { EventProducer } from '@herald/kafka';
import type { AdminStore } from '@herald/admin';
import { NotFoundError } from '@herald/errors';
import { planRegistration, toDeviceView, type DeviceView, type RegisterDeviceInput } from '../domain/device-registration.ts';
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
  readonly #devices: Collection<DeviceDocument>;

  constructor(deps: { producer: EventProducer; admin: AdminStore; db: Db }) {
    this.#producer = deps.producer;
    this.#admin = deps.admin;
    this.#devices = deps.db.collection<DeviceDocument>(READ_MODELS.devices);
  }

  async register(input: RegisterDeviceInput, correlationId?: string): Promise<DeviceView> {
    if ((await this.#admin.findProject(input.project_id)) === null) {
      throw new NotFoundError(`project_id ${input.project_id} does not exist`);
    }
    const existing = await this.#continuedDevice(input);
    const { device, events } = planRegistration(input, existing ?? undefined, correlationId, new Date());
    await this.#producer.publish(events);
    return device;
  }

  /** The device a registration continues: named by a token refresh, or already holding the token. */
  async #continuedDevice(input: RegisterDeviceInput): Promise<DeviceDocument | null> {
    if (input.device_id !== undefined) {
      const named = await this.#devices.findOne({ _id: input.device_id, project_id: input.project_id });
      if (named === null) throw new NotFoundError(`device_id ${input.device_id} does not exist in this project`);
      return named;
    }
    return this.#devices.findOne({ project_id: input.project_id, token: input.token });
  }

  async list(projectId: string, query: DeviceListQuery): Promise<{ data: DeviceView[]; pagination: Pagination }> {
    const request = pageRequest(query);
    const filter: Filter<DeviceDocument> = { project_id: projectId };
    if (query.status !== undefined) filter.status = query.status;
    const [count, docs] = await Promise.all([
      this.#devices.countDocuments(filter),
      this.#devices.find(filter).sort({ created_at: 1, _id: 1 }).skip(request.skip).limit(request.limit).toArray(),
    ]);
    return { data: docs.map(toDeviceView), pagination: pagination(request, count, docs.length) };
  }
}
