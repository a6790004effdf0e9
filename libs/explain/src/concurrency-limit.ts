import { AppError } from '@herald/errors';

/** At most `perKey` runs at once per key and `total` in all: a run past either is refused (429) at once, never queued. */
export class ConcurrencyLimit {
  readonly #perKey: number;
  readonly #total: number;
  readonly #running = new Map<string, number>();
  #all = 0;

  constructor(limits: { perKey: number; total: number }) {
    this.#perKey = limits.perKey;
    this.#total = limits.total;
  }

  async run<T>(key: string, what: string, work: () => Promise<T>): Promise<T> {
    const mine = this.#running.get(key) ?? 0;
    if (mine >= this.#perKey) throw new AppError('RATE_LIMITED', `${what}: ${mine} already running for this project; try again when it is done`);
    if (this.#all >= this.#total) throw new AppError('RATE_LIMITED', `${what}: ${this.#all} already running; try again in a moment`);
    this.#running.set(key, mine + 1);
    this.#all += 1;
    try {
      return await work();
    } finally {
      this.#all -= 1;
      const left = (this.#running.get(key) ?? 1) - 1;
      if (left === 0) this.#running.delete(key);
      else this.#running.set(key, left);
    }
  }
}
