import type { NotificationRequestedV2 } from '@herald/events';
import type { ConsumedEvent } from '@herald/kafka';
import type { NotificationFacts } from './types.ts';

/** What a notification's own events say about it (pure). */
export function notificationFacts(requested: NotificationRequestedV2, records: readonly ConsumedEvent[]): NotificationFacts {
  let cancelled: string | null = null;
  let expired: NotificationFacts['expired'] = null;
  let dispatches = 0;
  for (const { event } of records) {
    if (event.type === 'NotificationCancelled') cancelled ??= event.occurred_at;
    else if (event.type === 'NotificationExpired') expired ??= { at: event.occurred_at, reason: event.data.reason };
    else if (event.type === 'NotificationDispatched') dispatches += 1;
  }
  return {
    id: requested.data.notification_id,
    project_id: requested.project_id,
    requested_at: requested.occurred_at,
    targets: requested.data.targets,
    cancelled_at: cancelled,
    expired,
    dispatches,
  };
}
