import { canonicalLocale } from '@herald/audience';
import { createEvent, deviceIdFor, topicIdFor, type HeraldEvent } from '@herald/events';
import { type DeviceDocument, previewDevice } from '@herald/read-models';
import type { Static } from 'typebox';
import type { Device, RegisterDeviceBody } from '../schemas/devices.ts';
import type { StoredSubscription } from './web-subscription.ts';

export type RegisterDeviceInput = Static<typeof RegisterDeviceBody>;
/** A registration once its token is known: a web device's is its subscription's endpoint (web-registration.ts). */
export type TokenedRegistration = RegisterDeviceInput & { token: string };
export type DeviceView = Static<typeof Device>;

export function toDeviceView(doc: DeviceDocument): DeviceView {
  return {
    id: doc._id,
    token: doc.token,
    platform: doc.platform,
    status: doc.status,
    metadata: doc.metadata,
    identifiers: doc.identifiers,
    topics: doc.topics,
    external_id: doc.external_id ?? null,
    timezone: doc.timezone ?? null,
    locale: doc.locale ?? null,
    deactivation: doc.status === 'inactive' && doc.deactivation !== undefined ? doc.deactivation : null,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

/**
 * The user a registration may leave in place without proof: the device's
 * own, while it is active. A device coming back from inactive (deleted, or
 * its token rejected) comes back without one (the projection drops it), so
 * naming that user again needs proof like any claim.
 */
export function currentUser(existing: Pick<DeviceDocument, 'status' | 'external_id'> | undefined): string | undefined {
  return existing?.status === 'active' ? existing.external_id : undefined;
}

/** The bytes a device holds of what its registrations bring: the bound DEVICE_MAX_BYTES is on this. */
export function deviceBytes(device: Pick<DeviceView, 'token' | 'identifiers' | 'metadata' | 'topics' | 'external_id' | 'timezone'>): number {
  const { token, identifiers, metadata, topics, external_id, timezone } = device;
  return Buffer.byteLength(JSON.stringify({ token, identifiers, metadata, topics, external_id, timezone }));
}

export interface RegistrationPlanOptions {
  /** Topic names this registration creates (device-created topics; only where the project allows them). */
  createTopics?: readonly string[];
  correlationId?: string | undefined;
  now: Date;
  /** The values of `identifiers` this registration proved (identity-verification.ts provenIdentifiers). */
  provenIdentifiers?: readonly string[];
  /** Registered without the project's API key (recorded on the event: the quota's anonymous share counts these). */
  anonymous?: boolean;
  /** A web device's subscription as the event keeps it. */
  subscription?: StoredSubscription | undefined;
}

/**
 * The events one registration produces, and the device as it will read once
 * they are projected. `existing` is the device this registration continues:
 * the one named by `device_id` (token refresh) or the one already holding the
 * token. A new device's id is derived from (project, token). `external_id:
 * null` unlinks the device from its user (DeviceUnlinked first). A device
 * whose id was derived from another token also gets a TokenAssigned.
 */
export function planRegistration(
  input: TokenedRegistration,
  existing: DeviceDocument | undefined,
  options: RegistrationPlanOptions,
): { device: DeviceView; events: HeraldEvent[] } {
  const projectId = input.project_id;
  const deviceId = existing?._id ?? deviceIdFor(projectId, input.token);
  const context = { project_id: projectId, correlation_id: options.correlationId, now: options.now };
  const topicNames = input.topics === undefined ? undefined : [...new Set(input.topics)];
  const topicIds = topicNames?.map((name) => topicIdFor(projectId, name));

  const events: HeraldEvent[] = [...new Set(options.createTopics ?? [])].map((name) =>
    createEvent('TopicCreated', { topic_id: topicIdFor(projectId, name), name, origin: 'device' }, context),
  );
  if (input.external_id === null && existing?.external_id !== undefined) events.push(createEvent('DeviceUnlinked', { device_id: deviceId }, context));
  events.push(
    createEvent(
      'DeviceRegistered',
      {
        device_id: deviceId,
        token: input.token,
        platform: input.platform,
        ...(input.identifiers === undefined ? {} : { identifiers: input.identifiers }),
        // identifier_hashes, like external_id_hash, are proof for this request only: what they proved is stored, not they.
        ...(input.identifiers === undefined || (options.provenIdentifiers ?? []).length === 0 ? {} : { proven_identifiers: [...(options.provenIdentifiers ?? [])] }),
        ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
        ...(topicIds === undefined ? {} : { topic_ids: topicIds }),
        ...(typeof input.external_id === 'string' ? { external_id: input.external_id } : {}),
        // external_id_hash is proof for this request only: it is not stored.
        ...(input.timezone === undefined ? {} : { timezone: input.timezone }),
        // Canonical, so a locale target compares strings (register-device.ts refused a tag that is not one).
        ...(input.locale === undefined ? {} : { locale: canonicalLocale(input.locale) ?? input.locale }),
        ...(options.anonymous === true ? { anonymous: true } : {}),
        ...(options.subscription === undefined ? {} : { subscription: options.subscription }),
      },
      context,
    ),
  );
  // A device holding a token its id was not derived from (a refresh): filed under the token's own id too, where the
  // delivery index of that partition looks a token up (the device's own events stay the fact about its state).
  const tokenDeviceId = deviceIdFor(projectId, input.token);
  if (tokenDeviceId !== deviceId) events.push(createEvent('TokenAssigned', { token_device_id: tokenDeviceId, device_id: deviceId, token: input.token }, context));
  // What the read model will show once these events are projected: the projector's own evolve.
  const device = toDeviceView(previewDevice(existing, events)!);
  return { device, events };
}
