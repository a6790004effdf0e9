import { TOPICS } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import type { DeviceDocument } from '@herald/mongo';
import { alreadyApplied, positionOf, type Projection } from './projection.ts';

export function evolveDevice(state: DeviceDocument | undefined, record: ConsumedEvent): DeviceDocument | undefined {
  const { event } = record;
  if (alreadyApplied(state, record)) return state;
  if (state !== undefined && state.project_id !== event.project_id) return state;
  const position = positionOf(record);
  switch (event.type) {
    case 'DeviceRegistered': {
      const { data } = event;
      const base: DeviceDocument = state ?? {
        _id: data.device_id,
        project_id: event.project_id,
        token: data.token,
        platform: data.platform,
        status: 'active',
        metadata: {},
        identifiers: {},
        identifier_values: [],
        topics: [],
        created_at: event.occurred_at,
        updated_at: event.occurred_at,
        registered_at: event.occurred_at,
        position,
      };
      const { deactivation: _cleared, ...rest } = base;
      return {
        ...rest,
        token: data.token,
        platform: data.platform,
        status: 'active',
        metadata: data.metadata ?? base.metadata,
        identifiers: data.identifiers ?? base.identifiers,
        identifier_values: data.identifiers === undefined ? base.identifier_values : identifierValues(data.identifiers),
        topics: data.topic_ids ?? base.topics,
        updated_at: event.occurred_at,
        registered_at: event.occurred_at,
        position,
      };
    }
    case 'MetadataUpdated': {
      if (state === undefined) return state;
      const metadata = { ...state.metadata, ...event.data.set };
      for (const key of event.data.unset) delete metadata[key];
      return { ...state, metadata, updated_at: event.occurred_at, position };
    }
    case 'DeviceDeactivated': {
      if (state === undefined) return state;
      const { provider_timestamp: reportedAt } = event.data;
      // APNs: a 410 whose timestamp predates the last registration is about the old token life.
      const stale = reportedAt !== undefined && Date.parse(reportedAt) <= Date.parse(state.registered_at);
      if (stale) return { ...state, position };
      return {
        ...state,
        status: 'inactive',
        deactivation: { reason: event.data.reason, provider: event.data.provider, at: event.occurred_at },
        updated_at: event.occurred_at,
        position,
      };
    }
    default:
      return state;
  }
}

/** Stored beside `identifiers` so "any identifier equals X" is an indexed array match. */
function identifierValues(identifiers: Record<string, string>): string[] {
  return [...new Set(Object.values(identifiers))];
}

export const devicesProjection: Projection<DeviceDocument> = {
  name: 'devices',
  topics: [TOPICS.deviceEvents],
  documentIds: ({ event }) =>
    event.type === 'DeviceRegistered' || event.type === 'MetadataUpdated' || event.type === 'DeviceDeactivated'
      ? [event.data.device_id]
      : [],
  evolve: evolveDevice,
};
