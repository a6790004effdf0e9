import { createHash } from 'node:crypto';
import { TOPICS, type HeraldEvent } from '@herald/events';

/** The topics a webhook reads: the event stream's (docs/event-stream.md). */
export const WEBHOOK_TOPICS = [TOPICS.notificationEvents, TOPICS.deviceEvents] as const;

export interface WebhookFilter {
  project_id: string;
  event_types: readonly string[];
  notification_id: string | null;
}

/** Whether a webhook delivers `event`: its project's, one of its types, and (with a filter) that notification's. */
export function webhookWants(filter: WebhookFilter, event: HeraldEvent | undefined): event is HeraldEvent {
  if (event === undefined || event.project_id !== filter.project_id || !filter.event_types.includes(event.type)) return false;
  if (filter.notification_id === null) return true;
  return (event.data as { notification_id?: unknown }).notification_id === filter.notification_id;
}

/**
 * One request's body and id: `{"webhook_id", "events": [...]}` with each
 * event as in the log (its `id` is what receivers dedupe by). The delivery id
 * is the event's id for one event, else a digest of the ids: the same on
 * every retry of the same events.
 */
export function webhookRequest(webhookId: string, events: readonly HeraldEvent[]): { body: string; deliveryId: string } {
  const body = JSON.stringify({ webhook_id: webhookId, events });
  const deliveryId = events.length === 1 ? events[0]!.id : createHash('sha256').update(events.map((event) => event.id).join(',')).digest('hex').slice(0, 32);
  return { body, deliveryId };
}
