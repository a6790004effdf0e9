import type { Collection } from 'mongodb';
import { ADMIN_COLLECTIONS } from '../collections.ts';
import { driverDb, type Store } from '../store-handle.ts';

export interface LiveActivityTokenOutcome {
  device_id: string;
  token_id: string;
  outcome: 'delivered' | 'invalid' | 'failed';
  reason?: string;
}

/**
 * A Live Activity push request as GET /api/v1/live-activities/{id} shows
 * it: written `accepted` by the API with the request's LiveActivityRequested,
 * then `sent` with the per-token outcomes of its LiveActivityReported by the
 * delivery apns role (the event is the fact; this is its read copy, like a
 * one-document read model). docs/guides/live-activities.md.
 */
export interface LiveActivitySendDocument {
  /** The request id (the events' stream id). */
  _id: string;
  project_id: string;
  event: 'start' | 'update' | 'end';
  activity_id: string | null;
  attributes_type: string | null;
  timestamp: number;
  /** `coalesced`: an update superseded within the per-activity rate, never sent (LiveActivityPacingQueries). */
  status: 'accepted' | 'sent' | 'coalesced';
  outcomes: LiveActivityTokenOutcome[];
  /** coalesced: the newer update request that carried the later content_state. */
  coalesced_into?: string;
  /** coalesced: the update tokens it would have reached. */
  coalesced_tokens?: number;
  created_at: Date;
  reported_at: Date | null;
}

export class LiveActivitySendQueries {
  readonly #sends: Collection<LiveActivitySendDocument>;

  constructor(store: Store) {
    const db = driverDb(store);
    this.#sends = db.collection<LiveActivitySendDocument>(ADMIN_COLLECTIONS.liveActivitySends);
  }

  async insert(doc: LiveActivitySendDocument): Promise<void> {
    await this.#sends.insertOne(doc);
  }

  /** Idempotent: a redelivered report writes the same outcomes again. */
  async report(projectId: string, id: string, outcomes: readonly LiveActivityTokenOutcome[], at: Date): Promise<void> {
    await this.#sends.updateOne({ _id: id, project_id: projectId }, { $set: { status: 'sent', outcomes: [...outcomes], reported_at: at } });
  }

  async remove(projectId: string, id: string): Promise<void> {
    await this.#sends.deleteOne({ _id: id, project_id: projectId });
  }

  /** The device's most recent pushes that reached a token of it (explain), newest first. */
  async ofDevice(projectId: string, deviceId: string, limit: number): Promise<LiveActivitySendDocument[]> {
    return this.#sends.find({ project_id: projectId, 'outcomes.device_id': deviceId }).sort({ created_at: -1 }).limit(limit).toArray();
  }

  async get(projectId: string, id: string): Promise<LiveActivitySendDocument | null> {
    return this.#sends.findOne({ _id: id, project_id: projectId });
  }
}
