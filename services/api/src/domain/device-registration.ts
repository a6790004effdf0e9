import { createEvent, deviceIdFor, topicIdFor, type HeraldEvent } from '@herald/events';
import type { DeviceDocument } from '@herald/projections';
import { previewDevice } from '@herald/projections';
import type { Static } from 'typebox';
import type { Device, RegisterDeviceBody } from '../schemas/devices.ts';

export type RegisterDeviceInput = Static<typeof RegisterDeviceBody>;
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
    deactivation: doc.status === 'inactive' && doc.deactivation !== undefined ? doc.deactivation : null,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

/**
 * The events one registration produces, and the device as it will read once
 * they are projected. `existing` is the device this registration continues:
 * the one named by `device_id` (token refresh) or the one already holding the
 * token. A new device's id is derived from (project, token).
 */
export function planRegistration(
  input: RegisterDeviceInput,
  existing: DeviceDocument | undefined,
  correlationId: string | undefined,
  now: Date,
): { device: DeviceView; events: HeraldEvent[] } {
  const projectId = input.project_id;
  const deviceId = existing?._id ?? deviceIdFor(projectId, input.token);
  const context = { project_id: projectId, correlation_id: correlationId, now };
  const topicNames = input.topics === undefined ? undefined : [...new Set(input.topics)];
  const topicIds = topicNames?.map((name) => topicIdFor(projectId, name));

  const events: HeraldEvent[] = (topicNames ?? []).map((name, index) =>
    createEvent('TopicCreated', { topic_id: topicIds![index]!, name }, context),
  );
  events.push(
    createEvent(
      'DeviceRegistered',
      {
        device_id: deviceId,
        token: input.token,
        platform: input.platform,
        ...(input.identifiers === undefined ? {} : { identifiers: input.identifiers }),
        ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
        ...(topicIds === undefined ? {} : { topic_ids: topicIds }),
        ...(input.external_id === undefined ? {} : { external_id: input.external_id }),
        // external_id_hash is proof for this request only: it is not stored.
        ...(input.timezone === undefined ? {} : { timezone: input.timezone }),
      },
      context,
    ),
  );
  // What the read model will show once these events are projected: the projector's own evolve.
  const device = toDeviceView(previewDevice(existing, events)!);
  return { device, events };
}
