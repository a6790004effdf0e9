/**
 * The senders' guard on a paced campaign's rate (pure arithmetic; instants
 * passed in). The fan-out queues a paced campaign's batches at its rate, but
 * a sender that fell behind — a loaded machine, another campaign's batches
 * ahead on the same partitions — would send the backlog at full speed once
 * it caught up: a burst well over the rate (a 1M run on a busy box sent
 * 7,000/s for 30 s of a 4,000/s campaign). So each sender instance also lets
 * a notification's pushes leave at most at its share of the rate, from a
 * token bucket that holds one second's worth.
 */
export interface Bucket {
  /** Pushes that may leave now (negative: booked ahead, the next must wait). */
  tokens: number;
  at: number;
}

/** The bucket refilled to `now` at `perSecond`, never above `depthS` seconds' worth. */
export function refill(bucket: Bucket | undefined, now: number, perSecond: number, depthS = 1): Bucket {
  const depth = perSecond * depthS;
  if (bucket === undefined) return { tokens: depth, at: now };
  return { tokens: Math.min(depth, bucket.tokens + ((now - bucket.at) / 1000) * perSecond), at: now };
}

/**
 * Books `pushes` at `now`: the bucket after it, and how long the caller waits
 * before they leave (0 while the bucket holds them). A batch larger than the
 * bucket waits for what it lacks, so the average never exceeds the rate.
 */
export function book(bucket: Bucket | undefined, now: number, pushes: number, perSecond: number, depthS = 1): { bucket: Bucket; waitMs: number } {
  const filled = refill(bucket, now, perSecond, depthS);
  const tokens = filled.tokens - pushes;
  return { bucket: { tokens, at: now }, waitMs: tokens >= 0 ? 0 : Math.ceil((-tokens / perSecond) * 1000) };
}

/** One bucket per notification, the least recently used dropped past `capacity` (a dropped one restarts full: one second's worth at most). */
export class SendPacer {
  readonly #buckets = new Map<string, Bucket>();
  readonly #capacity: number;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  /** How long `pushes` of notification `id` must wait at `perSecond` (booked now). */
  book(id: string, now: number, pushes: number, perSecond: number): number {
    const booked = book(this.#buckets.get(id), now, pushes, perSecond);
    this.#buckets.delete(id);
    this.#buckets.set(id, booked.bucket);
    if (this.#buckets.size > this.#capacity) this.#buckets.delete(this.#buckets.keys().next().value!);
    return booked.waitMs;
  }
}
