import { TOPICS } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import type { DeliveryCounts, NotificationDocument } from '@herald/mongo';
import { alreadyApplied, positionOf, type Projection } from './projection.ts';

const ZERO: DeliveryCounts = { targeted: 0, sent: 0, delivered: 0, failed: 0, invalid: 0, cancelled: 0, opened: 0 };

/**
 * A notification's status and counters. All its events share its Kafka key,
 * so they arrive in order at one consumer: the counters have one writer.
 * `accepted` → `dispatching` (audience resolved) → `completed` (every
 * targeted device has an outcome).
 */
export function evolveNotification(state: NotificationDocument | undefined, record: ConsumedEvent): NotificationDocument | undefined {
  const { event } = record;
  if (alreadyApplied(state, record)) return state;
  if (state !== undefined && state.project_id !== event.project_id) return state;
  const position = positionOf(record);
  switch (event.type) {
    case 'NotificationRequested': {
      if (state !== undefined) return { ...state, position };
      const { data } = event;
      return {
        _id: data.notification_id,
        project_id: event.project_id,
        title: data.title,
        body: data.body,
        targets: data.targets,
        ...(data.link_to === undefined ? {} : { link_to: data.link_to }),
        ...(data.group === undefined ? {} : { group: data.group }),
        status: 'accepted',
        counts: { ...ZERO },
        reported_batches: [],
        created_at: event.occurred_at,
        updated_at: event.occurred_at,
        position,
      };
    }
    case 'NotificationDispatched': {
      if (state === undefined) return state;
      const counts = { ...state.counts, targeted: event.data.targeted.apns + event.data.targeted.fcm };
      return withStatus({ ...state, counts, status: 'dispatching', updated_at: event.occurred_at, position });
    }
    case 'DeliveryReported': {
      if (state === undefined) return state;
      const reported = state.reported_batches ?? [];
      if (reported.includes(event.data.batch_id)) return { ...state, position };
      const counts = { ...state.counts };
      for (const result of event.data.results) {
        counts.sent += 1;
        counts[result.outcome] += 1;
      }
      return withStatus({ ...state, counts, reported_batches: [...reported, event.data.batch_id], updated_at: event.occurred_at, position });
    }
    case 'NotificationOpened': {
      if (state === undefined) return state;
      return { ...state, counts: { ...state.counts, opened: state.counts.opened + 1 }, updated_at: event.occurred_at, position };
    }
    default:
      return state;
  }
}

function withStatus(doc: NotificationDocument): NotificationDocument {
  if (doc.status === 'accepted') return doc;
  return { ...doc, status: doc.counts.sent >= doc.counts.targeted ? 'completed' : 'dispatching' };
}

export const notificationsProjection: Projection<NotificationDocument> = {
  name: 'notifications',
  topics: [TOPICS.notificationEvents],
  documentIds: ({ event }) =>
    event.type === 'NotificationRequested' ||
    event.type === 'NotificationDispatched' ||
    event.type === 'DeliveryReported' ||
    event.type === 'NotificationOpened'
      ? [event.data.notification_id]
      : [],
  evolve: evolveNotification,
};
