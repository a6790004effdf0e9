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
  deactivation?: { reason: string; provider: string; at: string };
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
  /** Devices that reported opening it. */
  opened: number;
}

export interface NotificationDocument extends ProjectedDocument {
  title: string;
  body: string;
  targets: Array<string | { metadata: Record<string, string> }>;
  link_to?: string;
  group?: string;
  status: 'accepted' | 'dispatching' | 'completed';
  counts: DeliveryCounts;
  /** Batches already counted: a batch re-sent after a sender crash is reported twice but counted once. */
  reported_batches: string[];
  created_at: string;
  updated_at: string;
}

/** One per (notification, device): what happened to that device. `_id` is `<notification id>:<device id>`. */
export interface ReceiptDocument extends ProjectedDocument {
  notification_id: string;
  device_id: string;
  outcome?: 'delivered' | 'failed' | 'invalid';
  reason?: string;
  reported_at?: string;
  opened_at?: string;
}
