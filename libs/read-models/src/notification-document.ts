import type { TargetExpression, VariantDecidedV1 } from '@herald/events';
import type { IndexDefinition } from './index-definition.ts';
import type { ProjectedDocument } from './documents.ts';

// The notifications read model's document: what the API shows of a notification (evolved in notifications.ts).

export interface DeliveryCounts {
  /** Active devices the audience resolved to. */
  targeted: number;
  /** Devices a provider gave an answer for (delivered + failed + invalid). */
  sent: number;
  /** Accepted by APNs / FCM. */
  delivered: number;
  /** Not accepted, after retries. */
  failed: number;
  /** Token rejected as invalid; the device was deactivated. */
  invalid: number;
  /** Not sent: the notification was cancelled before its batch went out. */
  cancelled: number;
  /** Not sent: its `max_duration` ran out before its batch went out (absent on documents older than the field). */
  expired?: number;
  /** Not sent: a project frequency cap with `on_cap: drop` (absent on documents older than the field). */
  capped?: number;
  /** Held by a frequency cap (`on_cap: defer`) or quiet hours, not sent yet: each moves to its real outcome when its batch is released. */
  deferred?: number;
  /** Not sent: in an A/B send's holdout (absent outside A/B sends). */
  held_out?: number;
  /** Devices that reported opening it. */
  opened: number;
}

export type NotificationStatus = 'scheduled' | 'queued' | 'sending' | 'paused' | 'sent' | 'cancelled' | 'expired';

/** Statuses after which nothing more is sent. */
export const FINISHED_STATUSES: readonly NotificationStatus[] = ['sent', 'cancelled', 'expired'];

/** What the client asked for beyond title, body and targets (push options, schedule), as sent. */
export type NotificationOptions = Record<string, unknown>;

export interface NotificationDocument extends ProjectedDocument {
  title: string;
  body: string;
  targets: TargetExpression[];
  link_to?: string;
  group?: string;
  /** Push options and schedule fields present on the request (data, badge, …, send_at, send_at_local). */
  options?: NotificationOptions;
  status: NotificationStatus;
  /** A test send (NotificationRequested `test_send`): left out of the list and its counters' main key. */
  test_send?: true;
  /** An edit of a scheduled send: the notification this one replaced (NotificationRequested `replaces`). */
  replaces?: string;
  /** Totals over every provider. */
  counts: DeliveryCounts;
  /** `webpush` once a web device was targeted (documents written before the Web Push lane have none). */
  by_provider?: { apns: DeliveryCounts; fcm: DeliveryCounts; webpush?: DeliveryCounts; hms?: DeliveryCounts };
  /** An A/B send: counts by variant name, `holdout` and `remainder` (variant-counts.ts). */
  by_variant?: Record<string, DeliveryCounts>;
  /** An A/B send with a test share, once decided: its VariantDecided. */
  decision?: VariantDecidedV1['data'];
  /** When the decision was made (its event's time; absent on documents projected before the field). */
  decided_at?: string;
  /** Dispatches seen (`<slot>/<partition>`; slot '' for a send with one slot, no partition for a dispatch of the whole audience) and how many slots and partition dispatches per slot there are. */
  dispatched_slots?: string[];
  slots?: number;
  partitions?: number;
  /** Each partition's audience as its fan-out counted it when it began (AudienceEstimated), by partition: what progress is measured against before the dispatch. */
  audience_estimates?: Record<string, number>;
  /** Batches already counted: a batch re-sent after a sender crash is reported twice but counted once. */
  reported_batches: string[];
  /** The pace in effect (the request's `rate_per_minute`, or the latest PATCH); absent: unpaced. */
  rate_per_minute?: number;
  /** Paused by a PATCH (`state: paused`) and not resumed since. */
  paused?: boolean;
  created_at: string;
  dispatched_at?: string;
  finished_at?: string;
  updated_at: string;
}

// The notification list, newest first, in all and by status.
/** The indexes this read model's queries need (docs/internals/indexes.md). */
export const NOTIFICATION_INDEXES: readonly IndexDefinition[] = [
    { key: { project_id: 1, created_at: -1, _id: -1 }, name: 'by_project_newest' },
    { key: { project_id: 1, status: 1, created_at: -1, _id: -1 }, name: 'by_project_status_newest' },
    // A replaced send's `replaced_by` (read for cancelled notifications only): few documents have `replaces`.
    { key: { project_id: 1, replaces: 1 }, name: 'by_project_replaces', partialFilterExpression: { replaces: { $exists: true } } },
];


export const ZERO_COUNTS: DeliveryCounts = { targeted: 0, sent: 0, delivered: 0, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, deferred: 0, opened: 0 };
