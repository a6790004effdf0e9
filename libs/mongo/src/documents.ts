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
