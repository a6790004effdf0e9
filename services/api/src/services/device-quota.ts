import { LRUCache } from 'lru-cache';
import { ValidationError } from '@herald/errors';
import { countMatching, type Collection } from '@herald/mongo';
import type { DeviceDocument } from '@herald/projections';

interface Tally {
  /** Devices counted in the read model at `countedAt`. */
  counted: number;
  countedAt: number;
  /** Devices this process registered since. */
  added: number;
}

/**
 * A project's device quota (active and inactive devices: a deleted device
 * stays stored). Counting a project's devices reads them all on stores that
 * push nothing down, so the count is taken at most every `recountMs` per
 * project and process (one count at a time), and this process adds the
 * devices it creates meanwhile. Several API processes registering at the
 * limit at once may overshoot it by what they create within that time.
 */
export class DeviceQuota {
  readonly #recountMs: number;
  readonly #now: () => number;
  readonly #tallies = new LRUCache<string, Tally>({ max: 10_000 });
  readonly #counting = new Map<string, Promise<Tally>>();

  constructor(options: { recountMs: number; now?: () => number }) {
    this.#recountMs = options.recountMs;
    this.#now = options.now ?? Date.now;
  }

  /** Refuses (400, naming the quota) a new device in a project that holds `quota` already. */
  async assertRoom(devices: Collection<DeviceDocument>, projectId: string, quota: number): Promise<void> {
    const tally = await this.#tally(devices, projectId, quota);
    const held = tally.counted + tally.added;
    if (held >= quota) {
      throw new ValidationError([
        `project_id ${projectId} holds its quota of ${quota} devices (PROJECT_DEVICE_QUOTA, or herald projects device-quota): no new device can register`,
      ]);
    }
  }

  /** A new device was registered by this process. */
  added(projectId: string): void {
    const tally = this.#tallies.get(projectId);
    if (tally !== undefined) tally.added += 1;
  }

  async #tally(devices: Collection<DeviceDocument>, projectId: string, quota: number): Promise<Tally> {
    const known = this.#tallies.get(projectId);
    if (known !== undefined && this.#now() - known.countedAt < this.#recountMs) return known;
    let counting = this.#counting.get(projectId);
    if (counting === undefined) {
      const startedAt = this.#now();
      counting = countMatching(devices, { project_id: projectId }, { limit: quota + 1 })
        .then((counted) => {
          const tally = { counted, countedAt: startedAt, added: 0 };
          this.#tallies.set(projectId, tally);
          return tally;
        })
        .finally(() => this.#counting.delete(projectId));
      this.#counting.set(projectId, counting);
    }
    return counting;
  }
}
