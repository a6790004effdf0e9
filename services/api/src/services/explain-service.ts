import { AppError } from '@herald/errors';
import { Explainer, type DeviceExplanation, type ExplainLimits, type NotificationExplanation } from '@herald/explain';
import type { HeraldKafka } from '@herald/kafka';
import { LiveActivitySendQueries, type ReadModelRegistry, type Store } from '@herald/mongo';
import type { AcceptedHere } from '../domain/just-sent.ts';

/** Past the log read's own timeout: the admin look-ups before it and the reader's clean-up after it. */
const DEADLINE_MARGIN_MS = 5_000;
/** A device's Live Activity pushes explain shows, newest first. */
const LIVE_ACTIVITY_PUSHES = 20;

/** Explain over the API: project-scoped, bounded by `limits` (docs/reference/explain.md); 503 on a process without Kafka. */
export class ExplainService {
  readonly #explainer: Explainer | undefined;
  /** The explain routes' request deadline. */
  readonly deadlineMs: number;

  constructor(deps: { kafka?: HeraldKafka | undefined; readModels: ReadModelRegistry; limits: ExplainLimits; accepted?: AcceptedHere; db?: Store | undefined }) {
    const accepted = deps.accepted;
    const acceptedHere = accepted === undefined ? undefined : (projectId: string, notificationId: string) => accepted.find(projectId, notificationId) !== undefined;
    const sends = deps.db === undefined ? undefined : new LiveActivitySendQueries(deps.db);
    const liveActivitySends = sends === undefined ? undefined : (projectId: string, deviceId: string) => sends.ofDevice(projectId, deviceId, LIVE_ACTIVITY_PUSHES);
    this.#explainer =
      deps.kafka === undefined
        ? undefined
        : new Explainer({ kafka: deps.kafka, readModels: deps.readModels, limits: deps.limits, knownOnly: true, ...(acceptedHere === undefined ? {} : { acceptedHere }), ...(liveActivitySends === undefined ? {} : { liveActivitySends }) });
    this.deadlineMs = deps.limits.timeoutMs + DEADLINE_MARGIN_MS;
  }

  device(projectId: string, deviceId: string): Promise<DeviceExplanation> {
    return this.#available().device(projectId, deviceId);
  }

  notification(projectId: string, notificationId: string, deviceId: string | undefined): Promise<NotificationExplanation> {
    return this.#available().notification(projectId, notificationId, deviceId);
  }

  #available(): Explainer {
    if (this.#explainer === undefined) throw new AppError('INFRA_UNAVAILABLE', 'explain is not available on this API process');
    return this.#explainer;
  }
}
