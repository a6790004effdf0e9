import { TOPICS, type NotificationRequestedV2, type ConsumedEvent } from '@herald/events';
import { batchProvider, isSent } from './ledger-rows.ts';
import { alreadyApplied, positionOf, type Projection } from './projection.ts';
import { notificationCountDeltas } from './notification-counts.ts';
import { variantCountsAfterOpen, variantCountsAfterReport } from './variant-counts.ts';
import { FINISHED_STATUSES, NOTIFICATION_INDEXES, ZERO_COUNTS, type DeliveryCounts, type NotificationDocument, type NotificationOptions } from './notification-document.ts';


/** Request fields kept as the client sent them besides title, body, targets, link_to and group. */
function optionsOf(data: NotificationRequestedV2['data']): NotificationOptions | undefined {
  const { notification_id: _id, title: _title, body: _body, targets: _targets, link_to: _link, group: _group, ...options } = data;
  return Object.keys(options).length === 0 ? undefined : options;
}

/** Held for later: a `send_at` after the request, or a local-time send (each zone's 09:00 comes in its own time). */
export function isScheduled(data: NotificationRequestedV2['data'], requestedAt: string): boolean {
  if (data.send_at_local !== undefined) return true;
  return data.send_at !== undefined && Date.parse(data.send_at) > Date.parse(requestedAt);
}

const isFinished = (doc: NotificationDocument) => FINISHED_STATUSES.includes(doc.status);

/** Names one dispatch: its slot ('' when the send has one) and, when fanned out per partition, the partition. */
function dispatchKey(data: { slot?: string | undefined; partition?: number | undefined }): string {
  return data.partition === undefined ? (data.slot ?? '') : `${data.slot ?? ''}/${data.partition}`;
}

/**
 * The audience a campaign's progress is measured against: the devices of
 * the partitions already dispatched (exact) plus the fan-out's count of each
 * partition still under way (AudienceEstimated). Undefined before any
 * partition of a campaign counted its audience (a send of one fan-out step
 * needs no estimate: it is dispatched at once).
 */
export function audienceEstimateOf(doc: Pick<NotificationDocument, 'audience_estimates' | 'dispatched_slots' | 'counts'>): number | undefined {
  if (doc.audience_estimates === undefined) return undefined;
  const dispatched = new Set(doc.dispatched_slots ?? []);
  let underWay = 0;
  for (const [partition, devices] of Object.entries(doc.audience_estimates)) if (!dispatched.has(dispatchKey({ partition: Number(partition) }))) underWay += devices;
  return doc.counts.targeted + underWay;
}

/** Each device is counted once it has an outcome; a cancelled, expired or capped device has one too (it will never be sent); a deferred one has not yet. */
const settled = (counts: DeliveryCounts) => counts.delivered + counts.failed + counts.invalid + counts.cancelled + (counts.expired ?? 0) + (counts.capped ?? 0) + (counts.held_out ?? 0);

/** The `reported_batches` entry of a released deferred batch's report (the batch id itself names its `deferred` report). */
export const SETTLED_SUFFIX = '+settled';

/**
 * `queued`/`scheduled` → `sending` (first dispatch) → `sent` once every slot
 * is dispatched and every targeted device has an outcome. Cancelled and
 * expired are final and set by their own events.
 */
function withProgress(doc: NotificationDocument, at: string): NotificationDocument {
  if (isFinished(doc)) return doc;
  if (doc.dispatched_at !== undefined) {
    const allDispatched = (doc.dispatched_slots?.length ?? 0) >= (doc.slots ?? 1) * (doc.partitions ?? 1);
    if (allDispatched && settled(doc.counts) >= doc.counts.targeted) return { ...doc, status: 'sent', finished_at: at };
  }
  if (doc.paused === true) return { ...doc, status: 'paused' };
  // A paced campaign's partitions announce their dispatch at their end: its first reports already mean it is sending.
  if (doc.dispatched_at !== undefined || (doc.reported_batches?.length ?? 0) > 0) return { ...doc, status: 'sending' };
  return doc.status === 'paused' ? { ...doc, status: 'queued' } : doc;
}

/**
 * A pause, resume or new rate (NotificationSteered, or the API's answer to
 * the PATCH before the read model has it): `paused` until resumed, then
 * back to where its progress puts it. A finished notification stays as is.
 */
export function steerNotification(doc: NotificationDocument, change: { state?: 'paused' | 'sending' | undefined; rate_per_minute?: number | undefined }, at: string): NotificationDocument {
  if (isFinished(doc)) return doc;
  const paused = change.state === undefined ? doc.paused : change.state === 'paused';
  const steered: NotificationDocument = {
    ...doc,
    ...(paused === undefined ? {} : { paused }),
    ...(change.rate_per_minute === undefined ? {} : { rate_per_minute: change.rate_per_minute }),
    updated_at: at,
  };
  return withProgress(steered, at);
}

function finish(doc: NotificationDocument, status: 'cancelled' | 'expired', at: string, position: NotificationDocument['position']): NotificationDocument {
  if (isFinished(doc)) return { ...doc, position };
  return { ...doc, status, finished_at: at, updated_at: at, position };
}

/**
 * A notification's status, counters (in all and per provider) and
 * timestamps. All its events share its Kafka key, so they arrive in order at
 * one consumer: the counters have one writer.
 */
export function evolveNotification(state: NotificationDocument | undefined, record: ConsumedEvent): NotificationDocument | undefined {
  const { event } = record;
  if (alreadyApplied(state, record)) return state;
  if (state !== undefined && state.project_id !== event.project_id) return state;
  const position = positionOf(record);
  const at = event.occurred_at;
  switch (event.type) {
    case 'NotificationRequested': {
      if (state !== undefined) return { ...state, position };
      const { data } = event;
      const options = optionsOf(data);
      return {
        _id: data.notification_id,
        project_id: event.project_id,
        title: data.title,
        body: data.body,
        targets: data.targets,
        ...(data.link_to === undefined ? {} : { link_to: data.link_to }),
        ...(data.group === undefined ? {} : { group: data.group }),
        ...(options === undefined ? {} : { options }),
        status: isScheduled(data, at) ? 'scheduled' : 'queued',
        ...(data.test_send === true ? { test_send: true as const } : {}),
        ...(data.replaces === undefined ? {} : { replaces: data.replaces }),
        ...(data.rate_per_minute === undefined ? {} : { rate_per_minute: data.rate_per_minute }),
        counts: { ...ZERO_COUNTS },
        by_provider: { apns: { ...ZERO_COUNTS }, fcm: { ...ZERO_COUNTS } },
        reported_batches: [],
        created_at: at,
        updated_at: at,
        position,
      };
    }
    case 'NotificationDispatched': {
      if (state === undefined) return state;
      const slot = dispatchKey(event.data);
      const dispatched = state.dispatched_slots ?? [];
      if (dispatched.includes(slot)) return { ...state, position };
      const { apns, fcm, webpush = 0, hms = 0 } = event.data.targeted;
      const byProvider = state.by_provider ?? { apns: { ...ZERO_COUNTS }, fcm: { ...ZERO_COUNTS } };
      const web = byProvider.webpush ?? (webpush > 0 ? { ...ZERO_COUNTS } : undefined);
      const huawei = byProvider.hms ?? (hms > 0 ? { ...ZERO_COUNTS } : undefined);
      return withProgress(
        {
          ...state,
          counts: { ...state.counts, targeted: state.counts.targeted + apns + fcm + webpush + hms },
          by_provider: {
            apns: { ...byProvider.apns, targeted: byProvider.apns.targeted + apns },
            fcm: { ...byProvider.fcm, targeted: byProvider.fcm.targeted + fcm },
            ...(web === undefined ? {} : { webpush: { ...web, targeted: web.targeted + webpush } }),
            ...(huawei === undefined ? {} : { hms: { ...huawei, targeted: huawei.targeted + hms } }),
          },
          dispatched_slots: [...dispatched, slot],
          slots: event.data.slots ?? state.slots ?? 1,
          partitions: event.data.partitions ?? state.partitions ?? 1,
          dispatched_at: state.dispatched_at ?? at,
          updated_at: at,
          position,
        },
        at,
      );
    }
    case 'DeliveryReported': {
      if (state === undefined) return state;
      const reported = state.reported_batches ?? [];
      // A released deferred batch is reported a second time under its id: counted once more, moving its devices out of `deferred`.
      const key = event.data.settles_deferral === true ? `${event.data.batch_id}${SETTLED_SUFFIX}` : event.data.batch_id;
      if (reported.includes(key)) return { ...state, position };
      const counts = { ...state.counts };
      const byProvider = state.by_provider ?? { apns: { ...ZERO_COUNTS }, fcm: { ...ZERO_COUNTS } };
      const provider = { ...(byProvider[event.data.provider] ?? ZERO_COUNTS) };
      for (const result of event.data.results) {
        counts[result.outcome] = (counts[result.outcome] ?? 0) + 1;
        provider[result.outcome] = (provider[result.outcome] ?? 0) + 1;
        if (isSent(result.outcome)) {
          counts.sent += 1;
          provider.sent += 1;
        }
        if (event.data.settles_deferral === true) {
          counts.deferred = Math.max(0, (counts.deferred ?? 0) - 1);
          provider.deferred = Math.max(0, (provider.deferred ?? 0) - 1);
        }
      }
      const byVariant = event.data.settles_deferral === true ? undefined : variantCountsAfterReport(state.by_variant, event.data);
      return withProgress(
        { ...state, counts, by_provider: { ...byProvider, [event.data.provider]: provider }, ...(byVariant === undefined ? {} : { by_variant: byVariant }), reported_batches: [...reported, key], updated_at: at, position },
        at,
      );
    }
    case 'NotificationOpened': {
      if (state === undefined) return state;
      const provider = event.data.batch_id === undefined ? undefined : batchProvider(event.data.batch_id);
      const byProvider = state.by_provider;
      const byVariant = variantCountsAfterOpen(state.by_variant, event.data);
      return {
        ...state,
        counts: { ...state.counts, opened: state.counts.opened + 1 },
        ...(byVariant === undefined ? {} : { by_variant: byVariant }),
        ...(provider === undefined || byProvider === undefined
          ? {}
          : { by_provider: { ...byProvider, [provider]: { ...(byProvider[provider] ?? ZERO_COUNTS), opened: (byProvider[provider]?.opened ?? 0) + 1 } } }),
        updated_at: at,
        position,
      };
    }
    case 'NotificationCancelled':
      return state === undefined ? state : finish(state, 'cancelled', at, position);
    case 'NotificationExpired':
      return state === undefined ? state : finish(state, 'expired', at, position);
    case 'NotificationSteered': {
      if (state === undefined) return state;
      return { ...steerNotification(state, event.data, at), position };
    }
    case 'VariantDecided':
      return state === undefined ? state : { ...state, decision: event.data, decided_at: at, updated_at: at, position };
    case 'AudienceEstimated': {
      if (state === undefined) return state;
      return { ...state, audience_estimates: { ...state.audience_estimates, [String(event.data.partition)]: event.data.devices }, position };
    }
    default:
      return state;
  }
}

/**
 * A one-device send's request, dispatch and report come within a few hundred
 * milliseconds under light load, and its dispatch and report within about
 * half a second of each other when the machine is saturated: fetched
 * together they fold into one write instead of an insert and two replaces
 * (on the local store a replace costs about four inserts). A fetch waits up
 * to 1 s for 2 MB (0.3 s for 1 MB before: one-device sends at saturation
 * then wrote 1.64 replaces per notification, and the store's CPU per send
 * fell 0.62–0.72 → 0.53–0.57 ms with 1 s). So this read model trails the
 * log by up to 1 s more under light load, and the ledger (receipts),
 * fetched at once, is usually ahead of it: a notification shown `sent` has
 * its receipts. (One partition may fill the 2 MB alone: fetch-settings.ts.)
 * Under load, when a send's request and its report are seconds apart, the
 * notification is held unwritten until sent (`holdNotification`,
 * held-documents.ts): still 1.28 replaces per send with this fetch alone.
 */
export const NOTIFICATIONS_FETCH = { minBytes: 2 * 1_048_576, maxWaitMs: 1_000 };

/** A send to at most this many devices is held while it is sending (a campaign is written from its first report on). */
export const HELD_SEND_DEVICES = 100;

/**
 * Whether a notification just made is about to change again (held-documents.ts):
 * queued (its dispatch comes next; a scheduled or paused one waits longer),
 * or a small send not paced that is sending (its report comes next). A
 * campaign shows its progress from its first report, as before.
 */
export function holdNotification(doc: NotificationDocument): boolean {
  if (doc.status === 'queued') return true;
  return doc.status === 'sending' && doc.rate_per_minute === undefined && doc.counts.targeted <= HELD_SEND_DEVICES && settled(doc.counts) <= HELD_SEND_DEVICES;
}

export const notificationsProjection: Projection<NotificationDocument> = {
  indexes: NOTIFICATION_INDEXES,
  fetch: NOTIFICATIONS_FETCH,
  name: 'notifications',
  topics: [TOPICS.notificationEvents],
  documentIds: ({ event }) => {
    switch (event.type) {
      case 'NotificationRequested':
      case 'NotificationDispatched':
      case 'DeliveryReported':
      case 'NotificationOpened':
      case 'NotificationCancelled':
      case 'NotificationExpired':
      case 'NotificationSteered':
      case 'AudienceEstimated':
      case 'VariantDecided':
        return [event.data.notification_id];
      default:
        return [];
    }
  },
  evolve: evolveNotification,
  counts: notificationCountDeltas,
  hold: holdNotification,
};
