import type { Static } from 'typebox';
import { createEvent, newId, type TargetExpression } from '@herald/events';
import type { EventProducer } from '@herald/kafka';
import { LiveActivityClock, LiveActivitySendQueries, type Store, type LiveActivitySendDocument } from '@herald/mongo';
import { nextLiveActivityTimestamp } from '@herald/push-payloads';
import { NotFoundError, UnprocessableError } from '@herald/errors';
import { liveActivityCounts, liveActivityProblems } from '../domain/live-activity-send.ts';
import type { LiveActivitySend, SendLiveActivityBody } from '../schemas/live-activities.ts';

type View = Static<typeof LiveActivitySend>;
type Input = Static<typeof SendLiveActivityBody>;

const viewOf = (doc: LiveActivitySendDocument): View => ({
  id: doc._id,
  event: doc.event,
  activity_id: doc.activity_id,
  attributes_type: doc.attributes_type,
  timestamp: doc.timestamp,
  status: doc.status,
  outcomes: doc.outcomes,
  counts: liveActivityCounts(doc.outcomes, doc.coalesced_tokens ?? 0),
  coalesced_into: doc.coalesced_into ?? null,
  created_at: doc.created_at.toISOString(),
  reported_at: doc.reported_at === null ? null : doc.reported_at.toISOString(),
});

/** Device ids are stored lower-case: a `{"device_id"}` leaf of any case names its device. */
const lowerDeviceId = (target: unknown): unknown =>
  target !== null && typeof target === 'object' && !Array.isArray(target) && typeof (target as { device_id?: unknown }).device_id === 'string' ? { device_id: (target as { device_id: string }).device_id.toLowerCase() } : target;

/**
 * Live Activity pushes (docs/guides/live-activities.md): checks the request,
 * fixes its aps.timestamp once (per activity, rising across instances; a
 * start has no activity yet, so its own id keys its clock), writes the
 * request's status document, then LiveActivityRequested; the delivery apns
 * role sends it.
 */
export class LiveActivityService {
  readonly #producer: EventProducer;
  readonly #clock: LiveActivityClock;
  readonly #sends: LiveActivitySendQueries;

  constructor(deps: { producer: EventProducer; db: Store }) {
    this.#producer = deps.producer;
    this.#clock = new LiveActivityClock(deps.db);
    this.#sends = new LiveActivitySendQueries(deps.db);
  }

  async send(projectId: string, input: Input, correlationId: string | undefined): Promise<View> {
    const problems = liveActivityProblems(input);
    if (problems.length > 0) throw new UnprocessableError(problems);
    const id = newId();
    const now = new Date();
    const timestamp = await this.#clock.next(projectId, input.activity_id ?? `start:${id}`, (last) => nextLiveActivityTimestamp(last, now.getTime()), now);
    const event = createEvent(
      'LiveActivityRequested',
      {
        request_id: id,
        event: input.event,
        ...(input.activity_id === undefined ? {} : { activity_id: input.activity_id }),
        ...(input.targets === undefined ? {} : { targets: input.targets.map(lowerDeviceId) as TargetExpression[] }),
        ...(input.attributes_type === undefined ? {} : { attributes_type: input.attributes_type }),
        ...(input.attributes === undefined ? {} : { attributes: input.attributes }),
        ...(input.content_state === undefined ? {} : { content_state: input.content_state }),
        ...(input.alert === undefined ? {} : { alert: input.alert }),
        ...(input.stale_date === undefined ? {} : { stale_date: input.stale_date }),
        ...(input.dismissal_date === undefined ? {} : { dismissal_date: input.dismissal_date }),
        ...(input.relevance_score === undefined ? {} : { relevance_score: input.relevance_score }),
        priority: input.priority ?? 10,
        timestamp,
      },
      { project_id: projectId, correlation_id: correlationId, now },
    );
    const doc: LiveActivitySendDocument = {
      _id: id,
      project_id: projectId,
      event: input.event,
      activity_id: input.activity_id ?? null,
      attributes_type: input.attributes_type ?? null,
      timestamp,
      status: 'accepted',
      outcomes: [],
      created_at: now,
      reported_at: null,
    };
    // The document first, so the report that follows the event always finds it; a refused publish takes it back.
    await this.#sends.insert(doc);
    try {
      await this.#producer.publish([event]);
    } catch (error) {
      await this.#sends.remove(projectId, id).catch(() => undefined);
      throw error;
    }
    return viewOf(doc);
  }

  async get(projectId: string, id: string): Promise<View> {
    const doc = await this.#sends.get(projectId, id.toLowerCase());
    if (doc === null) throw new NotFoundError(`live activity push ${id} does not exist in this project`);
    return viewOf(doc);
  }
}
