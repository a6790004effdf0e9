import type { DeliveryControlV1 } from '@herald/events';

/**
 * How notifications in flight must be treated, as this process knows it:
 * built from herald.delivery-control, which every delivery process reads
 * whole, so fan-out steps and senders ask it before each step and batch
 * without a store round trip. A cancel is final.
 */
export class DeliveryControls {
  readonly #cancelled = new Set<string>();

  apply(event: DeliveryControlV1): void {
    if (event.data.cancelled === true) this.#cancelled.add(event.data.notification_id);
  }

  /** The fan-out learns of a cancel first (it writes the control record): it stops at once, not when the record comes back. */
  cancel(notificationId: string): void {
    this.#cancelled.add(notificationId);
  }

  isCancelled(notificationId: string): boolean {
    return this.#cancelled.has(notificationId);
  }
}
