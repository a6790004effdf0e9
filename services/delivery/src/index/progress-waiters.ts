import { atEnd, type PartitionEnd } from '@herald/kafka';

/**
 * Promises that resolve once a partition's applied position reaches an
 * offset: fan-out tasks wait on the index this way (never by sleeping).
 */
export class ProgressWaiters {
  readonly #waiting = new Map<number, Array<{ offset: number; resolve: () => void }>>();
  readonly #position: (partition: number) => number;

  constructor(position: (partition: number) => number) {
    this.#position = position;
  }

  /** Resolves once `position(partition) >= offset`. */
  wait(partition: number, offset: number): Promise<void> {
    if (this.#position(partition) >= offset) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.#waiting.get(partition) ?? [];
      list.push({ offset, resolve });
      this.#waiting.set(partition, list);
    });
  }

  /** Resolves once the partition is at `end` by the one rule (caught-up.ts): its position, past markers, has reached it. */
  waitForEnd(end: PartitionEnd): Promise<void> {
    return atEnd(this.#position(end.partition), end) ? Promise.resolve() : this.wait(end.partition, end.high);
  }

  /** Call after the partition moved on. */
  moved(partition: number): void {
    const list = this.#waiting.get(partition);
    if (list === undefined) return;
    const position = this.#position(partition);
    const still = list.filter((waiter) => {
      if (position < waiter.offset) return true;
      waiter.resolve();
      return false;
    });
    if (still.length === 0) this.#waiting.delete(partition);
    else this.#waiting.set(partition, still);
  }
}
