import type { Filter } from 'mongodb';
import type { StoreFilter } from '../store-filter.ts';
import { deviceCountsOf, DEVICES_COUNT_KEY, type CounterDocument, type DeviceCounts, type DeviceDocument } from '@herald/read-models';
import type { ReadModelRegistry } from '../read-models.ts';
import { readCounts } from './counters.ts';

/** The listing's filters (GET /devices). */
export interface DeviceListFilter {
  status?: 'active' | 'inactive' | undefined;
  token?: string | undefined;
  external_id?: string | undefined;
  platform?: DeviceDocument['platform'] | undefined;
  /** One metadata pair the device must have (its key checked by the route: no '.', no leading '$'). */
  metadata?: { key: string; value: string } | undefined;
}

/** Which page of a listing: how many to pass over, how many to answer. */
export interface PageWindow {
  skip: number;
  limit: number;
}

/** Who writes by identifier: the project's key, a verified write, or an anonymous one. */
export type IdentifierCaller = 'key' | 'verified' | 'anonymous';

/**
 * What a metadata write's `identifier` matches. A user id (`external_id`)
 * only when the caller proved it may speak for that user: the key, or a
 * verified write. A verified write matches an identifier value only where
 * the device's registration proved it, so devices claiming a user's id
 * without proof are out of its reach.
 */
function identifierMatches(identifier: string, caller: IdentifierCaller): Array<Filter<DeviceDocument>> {
  const device: Array<Filter<DeviceDocument>> = [{ _id: identifier }, { token: identifier }];
  if (caller === 'anonymous') return [...device, { identifier_values: identifier }];
  if (caller === 'verified') return [...device, { proven_identifier_values: identifier }, { external_id: identifier }];
  return [...device, { identifier_values: identifier }, { external_id: identifier }];
}

function listFilter(projectId: string, filter: DeviceListFilter): Filter<DeviceDocument> {
  const out: Filter<DeviceDocument> = { project_id: projectId };
  if (filter.status !== undefined) out.status = filter.status;
  if (filter.token !== undefined) out.token = filter.token;
  if (filter.external_id !== undefined) out.external_id = filter.external_id;
  if (filter.platform !== undefined) out.platform = filter.platform;
  if (filter.metadata !== undefined) (out as Record<string, unknown>)[`metadata.${filter.metadata.key}`] = filter.metadata.value;
  return out;
}

/** One project's documents, or every project's (an operator's question). */
export function scope(projectId: string | undefined): { project_id?: string } {
  return projectId === undefined ? {} : { project_id: projectId };
}

/** Devices that count toward the quota: all but the ones the project deleted (they stay stored, inactive, for their history). */
const held = (projectId: string): Filter<DeviceDocument> => ({ project_id: projectId, 'deactivation.reason': { $ne: 'Unregistered' } });

/** The questions the API asks of the `devices` read model (its indexes: libs/read-models devices.ts). */
export class DeviceQueries {
  readonly #readModels: ReadModelRegistry;

  constructor(readModels: ReadModelRegistry) {
    this.#readModels = readModels;
  }

  #devices() {
    return this.#readModels.collection<DeviceDocument>('devices');
  }

  /** The project's device with this id, or null. */
  async device(projectId: string, deviceId: string): Promise<DeviceDocument | null> {
    return (await this.#devices()).findOne({ _id: deviceId, project_id: projectId });
  }

  /** True when the project (any project, for an operator: `undefined`) has a device with this id (active or not). */
  async deviceExists(projectId: string | undefined, deviceId: string): Promise<boolean> {
    return (await (await this.#devices()).findOne({ _id: deviceId, ...scope(projectId) }, { projection: { _id: 1 } })) !== null;
  }

  /** The device with this id, or holding this token, in the project (any project: `undefined`), or null. */
  async deviceByIdOrToken(projectId: string | undefined, by: { id: string } | { token: string }): Promise<DeviceDocument | null> {
    const devices = await this.#devices();
    return 'id' in by ? devices.findOne({ _id: by.id, ...scope(projectId) }) : devices.findOne({ token: by.token, ...scope(projectId) });
  }

  /** When a device (of any project) was first registered, or undefined when it is not stored. */
  async deviceCreatedAt(deviceId: string): Promise<string | undefined> {
    return (await (await this.#devices()).findOne({ _id: deviceId }, { projection: { created_at: 1 } }))?.created_at;
  }

  /** The project's device holding this token, or null. */
  async deviceByToken(projectId: string, token: string): Promise<DeviceDocument | null> {
    return (await this.#devices()).findOne({ project_id: projectId, token });
  }

  /** True when an active device of the project other than `deviceId` holds this token. */
  async tokenHeldByAnother(projectId: string, token: string, deviceId: string): Promise<boolean> {
    const other = await (await this.#devices()).findOne({ project_id: projectId, token, status: 'active', _id: { $ne: deviceId } }, { projection: { _id: 1 } });
    return other !== null;
  }

  /** A page of the project's devices, oldest first. */
  async devicePage(projectId: string, filter: DeviceListFilter, page: PageWindow): Promise<DeviceDocument[]> {
    return (await this.#devices()).find(listFilter(projectId, filter)).sort({ created_at: 1, _id: 1 }).skip(page.skip).limit(page.limit).toArray();
  }

  /** How many of the project's devices the filter matches, counted (for narrow filters: a token, a user). */
  async countDevices(projectId: string, filter: DeviceListFilter, limit?: number): Promise<number> {
    const [devices, store] = await Promise.all([this.#devices(), this.#readModels.store()]);
    return store.count(devices, listFilter(projectId, filter), limit === undefined ? undefined : { limit });
  }

  /** The project's devices by platform and status, from the projector's counters (libs/read-models device-counts.ts). */
  async deviceCounts(projectId: string): Promise<DeviceCounts> {
    const counters = await this.#readModels.countsCollection<CounterDocument>('devices');
    return deviceCountsOf((await readCounts(counters, projectId, [DEVICES_COUNT_KEY])).get(DEVICES_COUNT_KEY));
  }

  /** The project's devices an identifier write reaches (identifierMatches), at most `limit`. */
  async devicesByIdentifier(projectId: string, identifier: string, caller: IdentifierCaller, limit: number): Promise<DeviceDocument[]> {
    return (await this.#devices()).find({ project_id: projectId, $or: identifierMatches(identifier, caller) }).limit(limit).toArray();
  }

  /**
   * Ids of the devices of `platform` an audience filter (libs/audience
   * `audienceFilter`, already scoped to its project) matches, among `among`
   * when given, at most `limit` in id order (a Live Activity start resolving
   * its targets).
   */
  async audienceIds(audience: StoreFilter<DeviceDocument>, platform: DeviceDocument['platform'], limit: number, among?: readonly string[]): Promise<string[]> {
    const clauses: Array<Filter<DeviceDocument>> = [audience, { platform }];
    if (among !== undefined) clauses.push({ _id: { $in: [...among] } });
    const rows = await (await this.#devices()).find({ $and: clauses }).sort({ _id: 1 }).project<Pick<DeviceDocument, '_id'>>({ _id: 1 }).limit(limit).toArray();
    return rows.map((row) => row._id);
  }

  /**
   * How many devices an audience filter (libs/audience `audienceFilter`,
   * already scoped to its project) matches on each platform.
   */
  async countAudience(audience: StoreFilter<DeviceDocument>): Promise<{ ios: number; android: number; web: number; huawei: number }> {
    const [devices, store] = await Promise.all([this.#devices(), this.#readModels.store()]);
    const [ios, android, web, huawei] = await Promise.all((['ios', 'android', 'web', 'huawei'] as const).map((platform) => store.count(devices, { ...audience, platform })));
    return { ios: ios!, android: android!, web: web!, huawei: huawei! };
  }

  /**
   * The Web Push subscriptions of these devices of the project, by device id
   * (the webpush sender asks once per batch: one query for up to 500 ids by
   * `_id`). Devices the read model does not hold (yet), or without a
   * subscription, are absent.
   */
  async webPushSubscriptions(projectId: string, deviceIds: readonly string[]): Promise<Map<string, NonNullable<DeviceDocument['subscription']>>> {
    const found = new Map<string, NonNullable<DeviceDocument['subscription']>>();
    if (deviceIds.length === 0) return found;
    const rows = await (await this.#devices()).find({ _id: { $in: [...deviceIds] }, project_id: projectId }, { projection: { _id: 1, subscription: 1 } }).toArray();
    for (const row of rows) if (row.subscription !== undefined) found.set(row._id, row.subscription);
    return found;
  }

  /** How many devices the read model holds, of every project and status (benchmarks wait for a projection with it). */
  async countEveryDevice(): Promise<number> {
    const [devices, store] = await Promise.all([this.#devices(), this.#readModels.store()]);
    return store.count(devices, {});
  }

  /** The time zones the project's devices registered (any status). */
  async registeredZones(projectId: string): Promise<string[]> {
    const zones = await (await this.#devices()).distinct('timezone', { project_id: projectId });
    return zones.filter((zone): zone is string => typeof zone === 'string');
  }

  /** Ids of the devices the project deleted (DeviceUnregistered), oldest first, at most `limit`. */
  async deletedDeviceIds(projectId: string, limit: number): Promise<string[]> {
    const deleted = await (await this.#devices())
      .find({ project_id: projectId, status: 'inactive', 'deactivation.reason': 'Unregistered' })
      .sort({ created_at: 1, _id: 1 })
      .project<Pick<DeviceDocument, '_id'>>({ _id: 1 })
      .limit(limit)
      .toArray();
    return deleted.map((device) => device._id);
  }

  /** The project's devices that count toward its quota (the anonymous ones only, when asked), counted up to `limit`. */
  async countHeldDevices(projectId: string, options: { anonymous: boolean; limit: number }): Promise<number> {
    const [devices, store] = await Promise.all([this.#devices(), this.#readModels.store()]);
    return store.count(devices, options.anonymous ? { ...held(projectId), anonymous: true } : held(projectId), { limit: options.limit });
  }
}
