/** The longest a campaign-lane provider call waits for express calls in flight: campaigns slow down under urgent traffic, never stop. */
export const CAMPAIGN_YIELD_MS = 1_000;

/**
 * Pre-emption between the two sender lanes of one provider in one process
 * (they share the provider's connections and send slots): while express
 * calls (transactional sends) are in flight, a campaign call waits before
 * it goes to the provider — up to `maxWaitMs` — so a transactional send
 * during a large unpaced campaign takes the next free slots instead of
 * queueing behind the campaign's. Calls already in flight are not stopped.
 */
export class LaneGate {
  readonly #maxWaitMs: number;
  #express = 0;
  #idle: PromiseWithResolvers<void> | undefined;

  constructor(maxWaitMs = CAMPAIGN_YIELD_MS) {
    this.#maxWaitMs = maxWaitMs;
  }

  /** Runs an express call, holding campaign calls back while it is in flight. */
  async express<T>(call: () => Promise<T>): Promise<T> {
    this.#express += 1;
    try {
      return await call();
    } finally {
      this.#express -= 1;
      if (this.#express === 0) {
        this.#idle?.resolve();
        this.#idle = undefined;
      }
    }
  }

  /** Runs a campaign call once no express call is in flight (or after waiting `maxWaitMs`). */
  async campaign<T>(call: () => Promise<T>): Promise<T> {
    if (this.#express > 0) {
      this.#idle ??= Promise.withResolvers<void>();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.#idle.promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#maxWaitMs)))]);
      clearTimeout(timer);
    }
    return call();
  }

  /** Express calls in flight now (tests, metrics). */
  get expressInFlight(): number {
    return this.#express;
  }
}
