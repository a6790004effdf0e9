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
