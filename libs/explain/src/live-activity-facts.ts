import { reasonSaid } from './explain-reach.ts';

/** What one Live Activity push came to on one device, as explain shows it. */
export interface LiveActivityFact {
  /** The push's id (GET /api/v1/live-activities/{id}). */
  id: string;
  event: 'start' | 'update' | 'end';
  activity_id: string | null;
  attributes_type: string | null;
  at: string;
  outcome: 'delivered' | 'invalid' | 'failed';
  reason: string | null;
  /** The outcome for a person, naming what is missing when Herald knows (no APNs credentials: the command that sets them). */
  summary: string;
}

/** The stored shape read: a push's status document (libs/mongo LiveActivitySendDocument). */
export interface LiveActivitySendFacts {
  _id: string;
  event: 'start' | 'update' | 'end';
  activity_id: string | null;
  attributes_type: string | null;
  created_at: Date;
  outcomes: ReadonlyArray<{ device_id: string; outcome: 'delivered' | 'invalid' | 'failed'; reason?: string | undefined }>;
}

const SAID = { delivered: 'delivered: APNs took it', invalid: 'not delivered: APNs no longer takes the activity token (removed)', failed: 'not delivered' } as const;

/** A device's Live Activity pushes, newest first, one fact per token outcome of that device (pure). */
export function liveActivityFacts(sends: readonly LiveActivitySendFacts[], deviceId: string): LiveActivityFact[] {
  return sends.flatMap((send) =>
    send.outcomes
      .filter((row) => row.device_id === deviceId)
      .map((row) => ({
        id: send._id,
        event: send.event,
        activity_id: send.activity_id,
        attributes_type: send.attributes_type,
        at: send.created_at.toISOString(),
        outcome: row.outcome,
        reason: row.reason ?? null,
        summary: `Live Activity ${send.event} ${SAID[row.outcome]}${row.outcome === 'delivered' ? '' : reasonSaid(row.reason)}`,
      })),
  );
}
