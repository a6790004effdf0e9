import type { WebhookDocument } from '@herald/admin';
import { positionOf } from '@herald/admin';
import type { StreamEventType } from './event-stream.ts';

export const WEBHOOK_LIMITS = {
  urlLength: 2_048,
  defaultPerProject: 10,
  maxBatchEvents: 100,
  maxBatchWaitMs: 60_000,
  maxRotationOverlapS: 7 * 86_400,
  defaultRotationOverlapS: 86_400,
} as const;

/**
 * Problems with a webhook URL that can be told without resolving it: the
 * scheme (https; http only to a loopback host in local mode), an IP address
 * as host (a webhook names its host; only local mode may call 127.0.0.1 or
 * [::1]), credentials in the URL, a fragment. The addresses a host resolves
 * to are checked at every delivery (they may change), by delivery's webhooks
 * role. Web Push endpoints obey the same rules (`field` names them in the
 * problems: `subscription.endpoint`), and the webpush senders check the
 * addresses the same way.
 */
export function webhookUrlProblems(value: string, local: boolean, field = 'url'): string[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [`${field} must be an absolute URL`];
  }
  const loopbackHost = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  const problems: string[] = [];
  if (url.protocol === 'http:') {
    if (!local || !loopbackHost) problems.push(`${field} must use https (http only to a loopback host in local mode)`);
  } else if (url.protocol !== 'https:') problems.push(`${field} must use https`);
  if (isIpLiteral(url.hostname) && !(local && loopbackHost)) problems.push(`${field} must name its host, not an IP address (a loopback address only in local mode)`);
  if (url.username !== '' || url.password !== '') problems.push(`${field} must not carry credentials (user:password@)`);
  if (url.hash !== '') problems.push(`${field} must not have a fragment`);
  return problems;
}

/**
 * Whether a parsed URL's host is an IP address. The URL parser has already
 * turned every IPv4 spelling (`0x7f.1`, `2130706433`, full-width digits)
 * into dotted decimal, and an IPv6 host is always bracketed.
 */
function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Whether `asked` is at or before `current` on every partition it names (a replay may only go back). */
export function positionProblems(asked: Record<string, Record<string, number>>, current: WebhookDocument['position']): string[] {
  const now = positionOf(current ?? []);
  const problems: string[] = [];
  for (const [topic, partitions] of Object.entries(asked)) {
    for (const [partition, offset] of Object.entries(partitions)) {
      const reached = now[topic]?.[Number(partition)];
      if (reached === undefined) problems.push(`position.${topic}.${partition} is not a partition this webhook reads`);
      else if (offset > reached) problems.push(`position.${topic}.${partition} must not be past the webhook's position (${reached})`);
    }
  }
  return problems;
}

/** The API's view of a stored webhook: never its secrets. */
export function webhookView(document: WebhookDocument, now: Date) {
  const previous = document.secrets[1];
  const iso = (date: Date | null) => (date === null ? null : date.toISOString());
  return {
    id: document._id,
    url: document.url,
    // Only the API writes them, from the schema's list.
    event_types: document.event_types as StreamEventType[],
    notification_id: document.notification_id,
    batch: document.batch,
    created_at: document.created_at.toISOString(),
    updated_at: document.updated_at.toISOString(),
    secret_rotation: previous?.expires_at !== undefined && previous.expires_at > now ? { previous_expires_at: previous.expires_at.toISOString() } : null,
    position: document.position === null ? null : positionOf(document.position),
    replay_pending: document.replay !== null,
    paused: document.paused === true,
    status: {
      lag: document.status.lag,
      delivered_events: document.status.delivered_events,
      failed_attempts: document.status.failed_attempts,
      dead_letters: document.status.dead_letters,
      last_success_at: iso(document.status.last_success_at),
      last_failure: document.status.last_failure === null ? null : { at: document.status.last_failure.at.toISOString(), error: document.status.last_failure.error },
      updated_at: iso(document.status.updated_at),
    },
  };
}
