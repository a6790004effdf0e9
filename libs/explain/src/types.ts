import type { Provider } from '@herald/events';

/** Where a fact is in the log. */
export interface LogPlace {
  topic: string;
  partition: number;
  offset: number;
}

export type TimelineKind =
  | 'registered'
  | 'reactivated'
  | 'token_refreshed'
  | 'metadata_changed'
  | 'deactivated'
  | 'deactivation_ignored'
  | 'unregistered'
  | 'unlinked'
  | 'receipt'
  | 'opened';

export interface Receipt {
  notification_id: string;
  batch_id: string;
  provider: Provider;
  outcome: 'delivered' | 'failed' | 'invalid' | 'cancelled' | 'expired' | 'capped' | 'deferred' | 'held_out';
  reason: string | null;
  attempts: number | null;
  /** capped / deferred: the frequency cap or quiet hours that applied, and (deferred) when it goes out. */
  rule?: string;
  until?: string;
  at: string;
}

/** The provider's answer that deactivated a device (DeviceDeactivated). */
export interface Evidence {
  provider: Provider;
  reason: string;
  provider_timestamp: string | null;
  notification_id: string | null;
}

export interface TimelineEntry {
  at: string;
  kind: TimelineKind;
  summary: string;
  log: LogPlace;
  notification_id?: string;
  receipt?: Receipt;
  evidence?: Evidence;
}

export type ReachReason =
  | 'reached'
  | 'provider_rejected'
  | 'send_failed'
  | 'not_matched'
  | 'inactive'
  | 'unregistered'
  | 'registered_after_send'
  | 'cancelled'
  | 'expired'
  | 'capped'
  | 'deferred'
  | 'not_dispatched_yet'
  | 'audience_unknown'
  | 'awaiting_report';

export interface ClauseExplanation {
  clause: string;
  matched: boolean;
  detail: string;
}

/** Why one device was or was not reached by one notification. */
export interface ReachExplanation {
  device_id: string;
  reached: boolean;
  reason: ReachReason;
  summary: string;
  /** The device-events position the send's audience was taken at on the device's partition (`wait_for`), when recorded. */
  audience_position: { partition: number; offset: number } | null;
  /** The device as the log leaves it at that position (null: not registered yet). */
  device_at_send: { status: 'active' | 'inactive'; token: string; topics: string[]; metadata: Record<string, string>; external_id: string | null; timezone: string | null } | null;
  /** The target clauses the audience holds, each with whether it named the device (not_matched: none did). */
  clauses: ClauseExplanation[];
  /** Inactive or unregistered: since when and why. */
  inactive_since: string | null;
  evidence: Evidence | null;
  /** registered_after_send: where its first registration is. */
  registered_at: LogPlace | null;
  receipts: Receipt[];
  opened_at: string | null;
}

export interface NotificationFacts {
  id: string;
  project_id: string;
  requested_at: string;
  targets: unknown[];
  cancelled_at: string | null;
  expired: { at: string; reason: string } | null;
  /** Partition dispatches announced (NotificationDispatched), as [partition or null (whole audience), slot]. */
  dispatches: number;
}

/** How much reading the log one explain may cost. */
export interface ExplainLimits {
  /** Refused (422) when the log ranges to read hold more records than this. */
  maxRecords: number;
  /** Refused (503) when reading takes longer. */
  timeoutMs: number;
  /** Explains running at once per project (429 past it). */
  perProject: number;
  /** Explains running at once in the process (429 past it). */
  total: number;
  /** A device timeline looks at this many of its most recent notifications at most. */
  notifications: number;
}
