import { EventEmitter } from 'node:events';
import { AppError } from '@herald/errors';

export interface FakeStats {
  /** Requests to the push endpoint, answered or not yet. */
  requests: number;
  inFlight: number;
  /** The most push requests ever open at once: proves a client's concurrency bound. */
  maxInFlight: number;
  delivered: number;
  rejected: number;
  /** Rejections by the provider's reason code. */
  byReason: Record<string, number>;
}

export interface Recorder<T> {
  /** Accepted deliveries, oldest first (empty when recording is off; counts still run). */
  readonly deliveries: readonly T[];
  readonly stats: Readonly<FakeStats>;
  /** Marks a push request open; call the returned function when it is answered. */
  begin(): () => void;
  accept(delivery: T): void;
  reject(reason: string): void;
  /** Resolves once `count` deliveries were accepted in total (since the last reset). */
  waitForDeliveries(count: number, timeoutMs?: number): Promise<readonly T[]>;
  onDelivery(listener: (delivery: T) => void): () => void;
  reset(): void;
}

function emptyStats(): FakeStats {
  return { requests: 0, inFlight: 0, maxInFlight: 0, delivered: 0, rejected: 0, byReason: {} };
}

/** Deliveries and counters for a fake, with waits driven by events rather than polling. */
export function createRecorder<T>(options: { record: boolean; name: string }): Recorder<T> {
  const events = new EventEmitter<{ delivery: [T] }>();
  events.setMaxListeners(0);
  let deliveries: T[] = [];
  let stats = emptyStats();
  return {
    get deliveries() {
      return deliveries;
    },
    get stats() {
      return stats;
    },
    begin() {
      const current = stats;
      current.requests += 1;
      current.inFlight += 1;
      current.maxInFlight = Math.max(current.maxInFlight, current.inFlight);
      return () => {
        current.inFlight -= 1;
      };
    },
    accept(delivery) {
      stats.delivered += 1;
      if (options.record) deliveries.push(delivery);
      events.emit('delivery', delivery);
    },
    reject(reason) {
      stats.rejected += 1;
      stats.byReason[reason] = (stats.byReason[reason] ?? 0) + 1;
    },
    waitForDeliveries(count, timeoutMs = 10_000) {
      if (stats.delivered >= count) return Promise.resolve(deliveries);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (stats.delivered < count) return;
          clearTimeout(timer);
          events.off('delivery', check);
          resolve(deliveries);
        };
        const timer = setTimeout(() => {
          events.off('delivery', check);
          reject(new AppError('INTERNAL', `${options.name}: timed out after ${timeoutMs} ms waiting for ${count} deliveries (got ${stats.delivered})`));
        }, timeoutMs);
        events.on('delivery', check);
      });
    },
    onDelivery(listener) {
      events.on('delivery', listener);
      return () => void events.off('delivery', listener);
    },
    reset() {
      deliveries = [];
      stats = emptyStats();
    },
  };
}
