import type { Outgoing } from '@herald/kafka';

/**
 * The reports of the batches this sender sent most recently, by batch id
 * (least recently set dropped first). A batch is reported once it commits;
 * until then, a chunk taken again after a lost commit finds its batches here.
 */
export class RecentReports {
  readonly #reports = new Map<string, Outgoing[]>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(batchId: string): Outgoing[] | undefined {
    return this.#reports.get(batchId);
  }

  set(batchId: string, outputs: Outgoing[]): void {
    this.#reports.delete(batchId);
    this.#reports.set(batchId, outputs);
    if (this.#reports.size > this.#capacity) this.#reports.delete(this.#reports.keys().next().value!);
  }
}
