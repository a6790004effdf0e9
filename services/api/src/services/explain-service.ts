import { AppError } from '@herald/errors';
import { Explainer, type DeviceExplanation, type ExplainLimits, type NotificationExplanation } from '@herald/explain';
import type { HeraldKafka } from '@herald/kafka';
import type { ReadModelRegistry } from '@herald/mongo';
import type { AcceptedHere } from '../domain/just-sent.ts';

/** Past the log read's own timeout: the admin look-ups before it and the reader's clean-up after it. */
const DEADLINE_MARGIN_MS = 5_000;

/** Explain over the API: project-scoped, bounded by `limits` (docs/reference/explain.md); 503 on a process without Kafka. */
export class ExplainService {
  readonly #explainer: Explainer | undefined;
  /** The explain routes' request deadline. */
  readonly deadlineMs: number;

  constructor(deps: { kafka?: HeraldKafka | undefined; readModels: ReadModelRegistry; limits: ExplainLimits; accepted?: AcceptedHere }) {
    const accepted = deps.accepted;
    const acceptedHere = accepted === undefined ? undefined : (projectId: string, notificationId: string) => accepted.find(projectId, notificationId) !== undefined;
    this.#explainer =
      deps.kafka === undefined ? undefined : new Explainer({ kafka: deps.kafka, readModels: deps.readModels, limits: deps.limits, knownOnly: true, ...(acceptedHere === undefined ? {} : { acceptedHere }) });
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
