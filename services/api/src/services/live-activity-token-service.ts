import type { Static } from 'typebox';
import { DeviceQueries, LiveActivityTokenQueries, type Store, type LiveActivityTokenDocument, type ReadModelRegistry } from '@herald/mongo';
import { ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '@herald/errors';
import {
  attachInputProblem,
  attachRefusal,
  LIVE_ACTIVITY_TOKENS_PER_DEVICE,
  liveActivityTokenId,
  slotKey,
} from '../domain/live-activity-tokens.ts';
import type { AttachLiveActivityTokenBody, LiveActivityToken } from '../schemas/live-activity-tokens.ts';

type View = Static<typeof LiveActivityToken>;

const viewOf = (doc: LiveActivityTokenDocument): View => ({
  id: doc._id,
  device_id: doc.device_id,
  kind: doc.kind,
  token: doc.token,
  activity_id: doc.activity_id,
  attributes_type: doc.attributes_type,
  created_at: doc.created_at.toISOString(),
  updated_at: doc.updated_at.toISOString(),
});

const notFound = (deviceId: string) => new NotFoundError(`device ${deviceId} does not exist in this project`);

/**
 * Live Activity tokens as children of iOS devices (docs/guides/live-activities.md).
 * The device side attaches with its push token as proof; the project lists and
 * removes with its bearer key.
 */
export class LiveActivityTokenService {
  readonly #tokens: LiveActivityTokenQueries;
  readonly #devices: DeviceQueries;

  constructor(deps: { db: Store; readModels: ReadModelRegistry }) {
    this.#tokens = new LiveActivityTokenQueries(deps.db);
    this.#devices = new DeviceQueries(deps.readModels);
  }

  async attach(deviceId: string, input: Static<typeof AttachLiveActivityTokenBody>, bearerProjectId: string | undefined): Promise<View> {
    const problem = attachInputProblem(input);
    if (problem !== undefined) throw new ValidationError([problem]);
    const id = deviceId.toLowerCase();
    // By id alone when unauthenticated: device ids are unique across projects (derived from project and token).
    const device = (await this.#devices.deviceByIdOrToken(bearerProjectId, { id })) ?? undefined;
    const refusal = attachRefusal({ bearerProjectId, deviceToken: input.device_token, device });
    if (refusal === 'not_found') throw notFound(deviceId);
    if (refusal === 'forbidden' || device === undefined) throw new ForbiddenError("device_token: the device's current push token (or the project's bearer key) is required to attach a token to it");
    if (device.platform !== 'ios') throw new UnprocessableError([`device ${id}: Live Activities are iOS only (the device is ${device.platform})`]);
    if (device.status !== 'active') throw new UnprocessableError([`device ${id}: inactive, register it again first`]);

    const tokenId = liveActivityTokenId(id, input.kind, slotKey(input));
    // A rotation refills a slot the device already has; only a new slot counts against the bound.
    if (!(await this.#tokens.exists(device.project_id, tokenId)) && (await this.#tokens.countOfDevice(device.project_id, id)) >= LIVE_ACTIVITY_TOKENS_PER_DEVICE) {
      throw new UnprocessableError([`device ${id} keeps ${LIVE_ACTIVITY_TOKENS_PER_DEVICE} Live Activity tokens, the most it may: remove one first`]);
    }
    const now = new Date();
    const stored = await this.#tokens.upsert({
      _id: tokenId,
      project_id: device.project_id,
      device_id: id,
      kind: input.kind,
      token: input.token.toLowerCase(),
      activity_id: input.activity_id ?? null,
      attributes_type: input.attributes_type ?? null,
      created_at: now,
      updated_at: now,
    });
    if (stored === null) throw new Error(`live activity token ${tokenId} was not stored`);
    return viewOf(stored);
  }

  async list(projectId: string, deviceId: string): Promise<View[]> {
    const id = deviceId.toLowerCase();
    if (!(await this.#devices.deviceExists(projectId, id))) throw notFound(deviceId);
    return (await this.#tokens.ofDevice(projectId, id, LIVE_ACTIVITY_TOKENS_PER_DEVICE)).map(viewOf);
  }

  async remove(projectId: string, deviceId: string, tokenId: string): Promise<void> {
    if (!(await this.#tokens.delete(projectId, deviceId.toLowerCase(), tokenId.toLowerCase()))) {
      throw new NotFoundError(`live activity token ${tokenId} does not exist on device ${deviceId} in this project`);
    }
  }
}
