import { TOPICS, type DeviceRegisteredV2, type HeraldEvent, type ConsumedEvent, type Platform } from '@herald/events';
import type { ProjectedDocument } from './documents.ts';
import { alreadyApplied, positionOf, type Projection } from './projection.ts';
import type { IndexDefinition } from './index-definition.ts';
import { deviceCountDeltas } from './device-counts.ts';

/** A device as its events leave it: read by the API's device endpoints and by fan-out. */
export interface DeviceDocument extends ProjectedDocument {
  token: string;
  platform: Platform;
  status: 'active' | 'inactive';
  metadata: Record<string, string>;
  identifiers: Record<string, string>;
  /** The values of `identifiers`, so a lookup by any identifier uses an index. */
  identifier_values: string[];
  /** The values of `identifiers` the registration that set them proved (key or HMAC): what a verified metadata write matches. */
  proven_identifier_values?: string[];
  /** Topic ids the device is subscribed to. */
  topics: string[];
  created_at: string;
  updated_at: string;
  /** Last (re-)registration; an APNs 410 older than this does not deactivate. */
  registered_at: string;
  /** Why and when it became inactive: a provider's answer (`provider` set) or the project's DELETE (reason `Unregistered`). */
  deactivation?: { reason: string; provider?: string; at: string };
  /** The project's id of the user who owns the device (one user, many devices). */
  external_id?: string;
  /** IANA time zone name, for local-time sends. */
  timezone?: string;
  /** BCP 47 language tag, canonical (`fr-CA`): `{"locale": …}` targets match it and the tags under it. */
  locale?: string;
  /** Registered without the project's API key (and not registered with it since): counts toward the anonymous share of the quota. */
  anonymous?: true;
  /** web devices: the Web Push subscription's keys and the project's VAPID key it was made with (the endpoint is `token`). */
  subscription?: NonNullable<DeviceRegisteredV2['data']['subscription']>;
  /**
   * Purged (DevicePurged): never stored. The apply that folds it deletes the
   * document (`Projection.removes`), and the next event for the id starts
   * from nothing, as if the device had never been.
   */
  purged?: true;
}

/** The indexes this read model's queries need (docs/internals/indexes.md). */
export const DEVICE_INDEXES: readonly IndexDefinition[] = [
    { key: { project_id: 1, created_at: 1, _id: 1 }, name: 'by_project_created' },
    { key: { project_id: 1, identifier_values: 1 }, name: 'by_project_identifier' },
    { key: { project_id: 1, proven_identifier_values: 1 }, name: 'by_project_proven_identifier' },
    { key: { project_id: 1, status: 1, created_at: 1, _id: 1 }, name: 'by_project_status_created' },
    { key: { project_id: 1, token: 1 }, name: 'by_project_token' },
    { key: { project_id: 1, topics: 1 }, name: 'by_project_topic' },
    // The fan-out's keyset-paged audience on MongoDB: {project_id, status:'active', _id > after} sorted by _id,
    // per $or branch: topics $in (this index), _id/token $in, metadata.* equality (the next one).
    { key: { project_id: 1, status: 1, topics: 1, _id: 1 }, name: 'by_project_status_topic_id' },
    { key: { project_id: 1, status: 1, _id: 1 }, name: 'by_project_status_id' },
    // Users: the audience's external_id branch, and metadata PATCH by identifier.
    { key: { project_id: 1, status: 1, external_id: 1, _id: 1 }, name: 'by_project_status_external_id' },
    { key: { project_id: 1, external_id: 1 }, name: 'by_project_external_id' },
];


/** Metadata after a change: set keys win, unset keys go, the rest stay (the API counts keys with it too). */
export function mergeMetadata(current: Readonly<Record<string, string>>, set: Readonly<Record<string, string>>, unset: readonly string[]): Record<string, string> {
  const metadata = { ...current, ...set };
  for (const key of unset) delete metadata[key];
  return metadata;
}

/**
 * A device as its events leave it. The API answers registrations with this
 * same function (applied to events not yet in the log), so what it answers
 * is what the read model will show.
 */
export function evolveDevice(stored: DeviceDocument | undefined, record: ConsumedEvent): DeviceDocument | undefined {
  const { event } = record;
  if (alreadyApplied(stored, record)) return stored;
  const state = stored?.purged === true ? undefined : stored;
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
      // A device that comes back from inactive (deleted, or its token rejected) comes back without a user:
      // only a registration that carries external_id (with proof, checked by the API) links it again.
      const { deactivation: _cleared, external_id: previousUser, anonymous: wasAnonymous, proven_identifier_values: _proven, subscription: previousSubscription, ...rest } = base;
      // A web device's registration always brings its subscription; any other platform has none.
      const subscription = data.platform === 'web' ? (data.subscription ?? previousSubscription) : undefined;
      const user = data.external_id ?? (base.status === 'inactive' ? undefined : previousUser);
      // Anonymous from its creation (or comeback) until the key registers it; a keyed device stays the key's.
      const arrives = state === undefined || base.status === 'inactive';
      const anonymous = data.anonymous === true && (arrives || wasAnonymous === true);
      return {
        ...rest,
        token: data.token,
        platform: data.platform,
        status: 'active',
        metadata: data.metadata ?? base.metadata,
        identifiers: data.identifiers ?? base.identifiers,
        identifier_values: data.identifiers === undefined ? base.identifier_values : identifierValues(data.identifiers),
        // Proofs go with the identifiers they prove: new identifiers bring their own (or none).
        ...provenValues(data.identifiers === undefined ? base.proven_identifier_values : data.proven_identifiers),
        topics: data.topic_ids ?? base.topics,
        ...(user === undefined ? {} : { external_id: user }),
        ...(data.timezone === undefined ? {} : { timezone: data.timezone }),
        ...(data.locale === undefined ? {} : { locale: data.locale }),
        ...(anonymous ? { anonymous: true as const } : {}),
        ...(subscription === undefined ? {} : { subscription }),
        updated_at: event.occurred_at,
        registered_at: event.occurred_at,
        position,
      };
    }
    case 'MetadataUpdated': {
      if (state === undefined) return state;
      const locale = event.data.locale === undefined ? {} : { locale: event.data.locale };
      return { ...state, metadata: mergeMetadata(state.metadata, event.data.set, event.data.unset), ...locale, updated_at: event.occurred_at, position };
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
    case 'DeviceUnregistered': {
      if (state === undefined) return state;
      // The project deleted it: inactive, so never targeted, and no longer anyone's; its history (receipts) stays.
      const { external_id: _user, ...rest } = state;
      return { ...rest, status: 'inactive', deactivation: { reason: 'Unregistered', at: event.occurred_at }, updated_at: event.occurred_at, position };
    }
    case 'DevicePurged': {
      // The API purges only devices the project deleted; one active again since (registered anew) stays.
      if (state === undefined || state.status !== 'inactive') return state;
      return { ...state, purged: true, position };
    }
    case 'DeviceUnlinked': {
      if (state === undefined) return state;
      const { external_id: _user, ...rest } = state;
      return { ...rest, updated_at: event.occurred_at, position };
    }
    default:
      return state;
  }
}

/** Applies events not yet in the log (no position of their own): the API's view of what the read model will show. */
export function previewDevice(state: DeviceDocument | undefined, events: readonly HeraldEvent[]): DeviceDocument | undefined {
  // Partition -1 is no real partition, so no stored position hides them; offsets keep them in order.
  return events.reduce<DeviceDocument | undefined>((doc, event, offset) => evolveDevice(doc, { event, topic: TOPICS.deviceEvents, partition: -1, offset }), state);
}

function provenValues(values: readonly string[] | undefined): { proven_identifier_values?: string[] } {
  return values === undefined || values.length === 0 ? {} : { proven_identifier_values: [...new Set(values)] };
}

/** Stored beside `identifiers` so "any identifier equals X" is an indexed array match. */
function identifierValues(identifiers: Record<string, string>): string[] {
  return [...new Set(Object.values(identifiers))];
}

export const devicesProjection: Projection<DeviceDocument> = {
  indexes: DEVICE_INDEXES,
  name: 'devices',
  topics: [TOPICS.deviceEvents],
  documentIds: ({ event }) =>
    event.type === 'DeviceRegistered' ||
    event.type === 'MetadataUpdated' ||
    event.type === 'DeviceDeactivated' ||
    event.type === 'DeviceUnregistered' ||
    event.type === 'DevicePurged' ||
    event.type === 'DeviceUnlinked'
      ? [event.data.device_id]
      : [],
  evolve: evolveDevice,
  // A purged device is no device: it leaves the counters as it leaves the collection.
  counts: (before, after) => deviceCountDeltas(present(before), present(after)),
  removes: (doc) => doc.purged === true,
};

function present(doc: DeviceDocument | undefined): DeviceDocument | undefined {
  return doc?.purged === true ? undefined : doc;
}
