import type { DeliveryControlV1, ProjectThrottledV1 } from '@herald/events';

/** How a notification in flight is steered now (PATCH /api/v1/notifications/{id}). */
export interface Steering {
  paused: boolean;
  /** The pace set in flight, replacing the requested `rate_per_minute`. */
  ratePerMinute?: number | undefined;
}

const UNSTEERED: Steering = { paused: false };

/**
 * How notifications in flight must be treated, as this process knows it:
 * built from herald.delivery-control, which every delivery process reads
 * whole, so fan-out steps and senders ask it before each step and batch
 * without a store round trip. A cancel is final; for pause and pace the
 * latest record of a notification wins (its records share one partition,
 * so every process applies them in the same order). Waiters are woken on
 * every change, so a pause or resume takes effect as soon as its record is
 * read, not at the end of a hold.
 */
export class DeliveryControls {
  readonly #cancelled = new Set<string>();
  readonly #steering = new Map<string, Steering>();
  /** Per project: until when a provider pushed back (the latest `until` of its ProjectThrottled records). */
  readonly #throttled = new Map<string, number>();
  #wake: { promise: Promise<void>; resolve: () => void } = Promise.withResolvers<void>();

  apply(event: DeliveryControlV1): void {
    const { notification_id: id, cancelled, paused, rate_per_minute: rate } = event.data;
    if (cancelled === true) {
      this.#cancelled.add(id);
      this.#steering.delete(id);
    } else if (paused !== undefined || rate !== undefined) {
      if (this.#cancelled.has(id)) return;
      const current = this.#steering.get(id) ?? UNSTEERED;
      this.#steering.set(id, { paused: paused ?? current.paused, ratePerMinute: rate ?? current.ratePerMinute });
    } else {
      return;
    }
    this.#changed();
  }

  /**
   * A provider pushed back on a project (429 with Retry-After): its
   * campaign steps wait until `until`. Records read from the start of the
   * topic whose `until` has passed change nothing.
   */
  throttle(event: ProjectThrottledV1): void {
    const until = Date.parse(event.data.until);
    if (Number.isNaN(until) || until <= (this.#throttled.get(event.project_id) ?? 0)) return;
    if (this.#throttled.size > 10_000) this.#forgetPast(Date.now());
    this.#throttled.set(event.project_id, until);
    this.#changed();
  }

  /** Until when the project's campaign steps wait for a provider's Retry-After (undefined: not pushed back, or longer ago than the last record said). */
  throttledUntil(projectId: string): number | undefined {
    return this.#throttled.get(projectId);
  }

  #forgetPast(now: number): void {
    for (const [id, until] of this.#throttled) if (until < now) this.#throttled.delete(id);
  }

  /** The fan-out learns of a cancel first (it writes the control record): it stops at once, not when the record comes back. */
  cancel(notificationId: string): void {
    this.#cancelled.add(notificationId);
    this.#steering.delete(notificationId);
    this.#changed();
  }

  isCancelled(notificationId: string): boolean {
    return this.#cancelled.has(notificationId);
  }

  steering(notificationId: string): Steering {
    return this.#steering.get(notificationId) ?? UNSTEERED;
  }

  isPaused(notificationId: string): boolean {
    return this.#steering.get(notificationId)?.paused === true;
  }

  /** Resolves at the next change of any notification's control (a hold waits on it with its timeout). */
  changed(): Promise<void> {
    return this.#wake.promise;
  }

  #changed(): void {
    this.#wake.resolve();
    this.#wake = Promise.withResolvers<void>();
  }
}
