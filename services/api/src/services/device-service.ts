import { canonicalLocale } from '@herald/audience';
import { DeviceQueries, LiveActivityTokenQueries, TopicQueries, type Store, type ReadModelRegistry } from '@herald/mongo';
import { type DeviceCounts, type DeviceDocument, previewDevice } from '@herald/read-models';
import { purgeDeletedDevices } from '@herald/projections';
import type { EventProducer } from '@herald/kafka';
import { WebPushKeyDirectory, type AdminStore } from '@herald/admin';
import { createEvent } from '@herald/events';
import { NotFoundError, ValidationError } from '@herald/errors';
import { deviceBytes, toDeviceView, type DeviceView, type RegisterDeviceInput } from '../domain/device-registration.ts';
import { DEVICE_LIMITS } from '../domain/device-limits.ts';
import { planMetadataUpdate, type MetadataChange } from '../domain/metadata-update.ts';
import { checkIdentifierHash } from '../domain/identity-verification.ts';
import { pageRequest, pagination, type Pagination } from '../domain/paging.ts';
import { DEFAULT_DEVICE_POLICY, type DevicePolicy } from '../domain/device-policy.ts';
import { DeviceQuota } from './device-quota.ts';
import { registerDevice, type Registered, type RegisterRequest } from './register-device.ts';
import { WebPushKeyService } from './webpush-key-service.ts';

export interface DeviceListQuery {
  limit?: number | undefined;
  page?: number | undefined;
  status?: 'active' | 'inactive' | undefined;
  token?: string | undefined;
  external_id?: string | undefined;
  platform?: DeviceDocument['platform'] | undefined;
  metadata_key?: string | undefined;
  metadata_value?: string | undefined;
}

/** Where a metadata search's count stops: it reads the project's devices (no index has every key). */
export const METADATA_SEARCH_COUNT_LIMIT = 10_000;

const UNREGISTERED = 'Unregistered';

/** Device commands become events on Kafka; device queries read the `devices` read model. */
export class DeviceService {
  readonly #producer: EventProducer;
  readonly #admin: AdminStore;
  readonly #policy: DevicePolicy;
  readonly #quota: DeviceQuota;
  readonly #queries: DeviceQueries;
  readonly #topics: TopicQueries;
  /** The devices' Live Activity tokens (admin data), removed with an unregistered or purged device; absent without `db`. */
  readonly #liveActivityTokens: LiveActivityTokenQueries | undefined;
  /**
   * The projects' Web Push public keys, one cache for web registrations and
   * the public-key route (GET /api/v1/webpush/public-key). Without `db`
   * (tests of other parts), no project has keys.
   */
  readonly webPushKeys: WebPushKeyService;

  constructor(deps: { producer: EventProducer; admin: AdminStore; readModels: ReadModelRegistry; devicePolicy?: DevicePolicy | undefined; db?: Store | undefined }) {
    this.#producer = deps.producer;
    this.#admin = deps.admin;
    this.#policy = deps.devicePolicy ?? DEFAULT_DEVICE_POLICY;
    this.#quota = new DeviceQuota({ recountMs: this.#policy.quotaRecountMs });
    this.#queries = new DeviceQueries(deps.readModels);
    this.#topics = new TopicQueries(deps.readModels);
    this.#liveActivityTokens = deps.db === undefined ? undefined : new LiveActivityTokenQueries(deps.db);
    const directory = deps.db === undefined ? { summary: async () => undefined } : new WebPushKeyDirectory(deps.db);
    this.webPushKeys = new WebPushKeyService(directory);
  }

  /**
   * `request.bearerProjectId`: the project of the caller's bearer key, if it
   * sent one; it proves a token refresh (like `previous_token`) and an
   * external_id, and makes the device the key's (not anonymous).
   */
  async register(input: RegisterDeviceInput, request: RegisterRequest): Promise<Registered> {
    const deps = { producer: this.#producer, admin: this.#admin, devices: this.#queries, topics: this.#topics, policy: this.#policy, quota: this.#quota, webPushKeys: this.webPushKeys };
    return registerDevice(deps, input, request);
  }

  /** A device of the project; 404 when it is not the project's. */
  async get(projectId: string, deviceId: string): Promise<DeviceView> {
    return toDeviceView(await this.#find(projectId, deviceId));
  }

  async #find(projectId: string, deviceId: string): Promise<DeviceDocument> {
    const device = await this.#queries.device(projectId, deviceId);
    if (device === null) throw new NotFoundError(`device ${deviceId} does not exist in project ${projectId}`);
    return device;
  }

  /** Publishes DeviceUnregistered (which also unlinks its user); a device already unregistered is left as it is. */
  async unregister(projectId: string, deviceId: string, correlationId?: string): Promise<void> {
    const device = await this.#find(projectId, deviceId);
    // Before the early return, so a repeated DELETE finishes a removal an earlier one did not.
    await this.#liveActivityTokens?.deleteOfDevices(projectId, [device._id]);
    if (device.status === 'inactive' && device.deactivation?.reason === UNREGISTERED && device.external_id === undefined) return;
    await this.#producer.publish([createEvent('DeviceUnregistered', { device_id: deviceId }, { project_id: projectId, correlation_id: correlationId })]);
  }

  /**
   * Purges devices the project deleted, up to PURGE_PAGE a call
   * (libs/projections purge-devices.ts): after the DevicePurged events are
   * applied they are gone from the list and the audience index.
   */
  async purgeDeleted(projectId: string, correlationId?: string): Promise<{ purged: number; more: boolean }> {
    const { events, more } = await purgeDeletedDevices(this.#queries, projectId, correlationId);
    await this.#liveActivityTokens?.deleteOfDevices(projectId, events.map((event) => event.data.device_id));
    if (events.length > 0) await this.#producer.publish(events);
    return { purged: events.length, more };
  }

  /** The project detaches a device from its user (DeviceUnlinked); answers the device as it will read. Harmless when it has none. */
  async unlink(projectId: string, deviceId: string, correlationId?: string): Promise<DeviceView> {
    const device = await this.#find(projectId, deviceId);
    if (device.external_id === undefined) return toDeviceView(device);
    const unlinked = createEvent('DeviceUnlinked', { device_id: deviceId }, { project_id: projectId, correlation_id: correlationId });
    await this.#producer.publish([unlinked]);
    return toDeviceView(previewDevice(device, [unlinked])!);
  }

  /**
   * A page of the project's devices, oldest first. The count comes from the
   * counters the projector keeps (a few small documents, whatever the
   * project holds); by token or user it is counted, at most a handful.
   */
  async list(projectId: string, query: DeviceListQuery): Promise<{ data: DeviceView[]; pagination: Pagination }> {
    const request = pageRequest(query);
    if ((query.metadata_key === undefined) !== (query.metadata_value === undefined)) throw new ValidationError([`${query.metadata_key === undefined ? 'metadata_key' : 'metadata_value'}: metadata_key and metadata_value go together`]);
    const metadata = query.metadata_key === undefined || query.metadata_value === undefined ? undefined : { key: query.metadata_key, value: query.metadata_value };
    const filter = { status: query.status, token: query.token, external_id: query.external_id, platform: query.platform, metadata };
    const counted = async () => {
      if (query.token !== undefined || query.external_id !== undefined) return this.#queries.countDevices(projectId, filter);
      if (metadata !== undefined) return this.#queries.countDevices(projectId, filter, METADATA_SEARCH_COUNT_LIMIT);
      const counts = await this.counts(projectId);
      const byPlatform: ReadonlyArray<{ active: number; inactive: number }> = query.platform === undefined ? Object.values(counts) : [counts[query.platform]];
      const statuses: ReadonlyArray<'active' | 'inactive'> = query.status === undefined ? ['active', 'inactive'] : [query.status];
      let total = 0;
      for (const counts of byPlatform) for (const status of statuses) total += counts[status];
      return total;
    };
    const [count, docs] = await Promise.all([counted(), this.#queries.devicePage(projectId, filter, request)]);
    return { data: docs.map(toDeviceView), pagination: pagination(request, count, docs.length) };
  }

  /** The project's devices by platform and status, from the projector's counters (libs/projections device-counts.ts). */
  async counts(projectId: string): Promise<DeviceCounts> {
    return this.#queries.deviceCounts(projectId);
  }

  /**
   * Merges `patch` into every device of the project whose id, token or any
   * identifier value equals `identifier` (identifierMatches: a user id only
   * with proof, a verified write only proven values). Answers how many. At most 100 devices: an
   * identifier shared by more is refused rather than fanned out (one
   * anonymous call must not write without bound). `identifierHash` is
   * checked before any device is looked up, so an unverified caller learns
   * nothing about them.
   */
  async updateMetadata(
    projectId: string,
    identifier: string,
    change: MetadataChange,
    correlationId?: string,
    identifierHash?: string,
    bearerProjectId?: string,
  ): Promise<{ updated: number }> {
    const verification = await this.#admin.identityVerification(projectId);
    if (verification === null) throw new NotFoundError(`project_id ${projectId} does not exist`);
    const keyed = bearerProjectId === projectId;
    if (!keyed) checkIdentifierHash(verification, identifier, identifierHash);
    const limit = DEVICE_LIMITS.identifierMatches;
    const matching = await this.#queries.devicesByIdentifier(projectId, identifier, keyed ? 'key' : verification.enabled ? 'verified' : 'anonymous', limit + 1);
    if (matching.length === 0) throw new NotFoundError(`identifier ${identifier} matches no device in project ${projectId}`);
    if (matching.length > limit) throw new ValidationError([`identifier matches more than ${limit} devices; update them in smaller groups`]);
    const locale = change.locale === undefined ? undefined : canonicalLocale(change.locale);
    if (change.locale !== undefined && locale === undefined) throw new ValidationError([`locale ${JSON.stringify(change.locale)} is not a BCP 47 language tag (e.g. fr, fr-CA)`]);
    const plan = planMetadataUpdate(matching, change.metadata ?? {}, correlationId, new Date(), locale);
    if (plan.kind === 'refused') throw new ValidationError([plan.problem]);
    // Each device stays within the byte bound its registrations obey.
    for (const [index, event] of plan.events.entries()) {
      const bytes = deviceBytes(toDeviceView(previewDevice(matching[index], [event])!));
      if (bytes > this.#policy.maxDeviceBytes) {
        throw new ValidationError([`metadata would make a device hold ${bytes} bytes; a device holds at most ${this.#policy.maxDeviceBytes} (DEVICE_MAX_BYTES)`]);
      }
    }
    await this.#producer.publish(plan.events);
    return { updated: plan.updated };
  }
}
