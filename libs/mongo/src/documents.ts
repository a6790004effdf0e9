/**
 * Shapes of the read-model documents: written by the projector, read by the
 * API and delivery. One definition, so writer and readers cannot drift.
 */

/** Where a document's state came from: the last Kafka record applied to it. */
export interface Position {
  partition: number;
  offset: number;
}

export interface ProjectedDocument {
  _id: string;
  project_id: string;
  position: Position;
}

export interface DeviceDocument extends ProjectedDocument {
  token: string;
  platform: 'ios' | 'android';
  status: 'active' | 'inactive';
  metadata: Record<string, string>;
  identifiers: Record<string, string>;
  /** The values of `identifiers`, so a lookup by any identifier uses an index. */
  identifier_values: string[];
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
}

export interface TopicDocument extends ProjectedDocument {
  name: string;
  created_at: string;
}

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
  /** Devices that reported opening it. */
  opened: number;
}

export type NotificationStatus = 'scheduled' | 'queued' | 'sending' | 'sent' | 'cancelled' | 'expired';

/** Statuses after which nothing more is sent. */
export const FINISHED_STATUSES: readonly NotificationStatus[] = ['sent', 'cancelled', 'expired'];

/** What the client asked for beyond title, body and targets (push options, schedule), as sent. */
export type NotificationOptions = Record<string, unknown>;

export interface NotificationDocument extends ProjectedDocument {
  title: string;
  body: string;
  targets: Array<string | { metadata: Record<string, string> } | { external_id: string }>;
  link_to?: string;
  group?: string;
  /** Push options and schedule fields present on the request (data, badge, …, send_at, send_at_local). */
  options?: NotificationOptions;
  status: NotificationStatus;
  /** Totals over both providers. */
  counts: DeliveryCounts;
  by_provider?: { apns: DeliveryCounts; fcm: DeliveryCounts };
  /** Dispatches seen (slot names; '' for a send with one dispatch) and how many there are in all. */
  dispatched_slots?: string[];
  slots?: number;
  /** Batches already counted: a batch re-sent after a sender crash is reported twice but counted once. */
  reported_batches: string[];
  created_at: string;
  dispatched_at?: string;
  finished_at?: string;
  updated_at: string;
}

/** One device's line in a delivery batch. */
export interface LedgerDevice {
  device_id: string;
  outcome: 'delivered' | 'failed' | 'invalid' | 'cancelled';
  /** Provider's reason code when not delivered. */
  reason?: string;
  /** Sends tried for this device (absent when the report did not say). */
  attempts?: number;
  opened_at?: string;
}

/**
 * The delivery ledger: one document per delivery batch (up to 500 devices),
 * `_id` = the batch id. Per batch, not per device, so a 1M campaign writes
 * ~2,000 documents. Opens, counts and per-device receipts are answered from it.
 */
export interface DeliveryLedgerDocument extends ProjectedDocument {
  notification_id: string;
  provider: 'apns' | 'fcm';
  /** The batch's sequence number within its notification and provider (from the batch id). */
  sequence?: number;
  devices: LedgerDevice[];
  /** Devices per outcome in this batch: receipts page through batches without reading their devices. */
  tally?: Partial<Record<LedgerDevice['outcome'], number>>;
  reported_at: string;
}
