import { LRUCache } from 'lru-cache';
import { ValidationError } from '@herald/errors';
import type { DeviceQueries } from '@herald/mongo';
import { anonymousQuotaOf, quotaProblem } from '../domain/device-quota-rule.ts';

interface Tally {
  /** Devices counted in the read model at `countedAt` (deleted ones left out), and of those the anonymous ones. */
  counted: number;
  anonymousCounted: number;
  countedAt: number;
  /** Devices this process registered since, and of those the anonymous ones. */
  added: number;
  anonymousAdded: number;
}

export interface QuotaSetting {
  quota: number;
  anonymousPercent: number;
}

/**
 * A project's device quota (domain/device-quota-rule.ts). Counting a
 * project's devices reads them all on stores that push nothing down, so the
 * count is taken at most every `recountMs` per project and process (one
 * count at a time), and this process adds the devices it creates meanwhile.
 * Several API processes registering at the limit at once may overshoot it by
 * what they create within that time.
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

  /** Refuses (400, naming the quota) a new device, anonymous or registered with the key, in a project without room for it. */
  async assertRoom(devices: DeviceQueries, projectId: string, setting: QuotaSetting, anonymous: boolean): Promise<void> {
    const tally = await this.#tally(devices, projectId, setting);
    const problem = quotaProblem(
      { projectId, held: tally.counted + tally.added, anonymousHeld: tally.anonymousCounted + tally.anonymousAdded, ...setting },
      anonymous,
    );
    if (problem !== undefined) throw new ValidationError([problem]);
  }

  /** A new device was registered by this process. */
  added(projectId: string, anonymous: boolean): void {
    const tally = this.#tallies.get(projectId);
    if (tally === undefined) return;
    tally.added += 1;
    if (anonymous) tally.anonymousAdded += 1;
  }

  async #tally(devices: DeviceQueries, projectId: string, setting: QuotaSetting): Promise<Tally> {
    const known = this.#tallies.get(projectId);
    if (known !== undefined && this.#now() - known.countedAt < this.#recountMs) return known;
    let counting = this.#counting.get(projectId);
    if (counting === undefined) {
      const startedAt = this.#now();
      const anonymousLimit = anonymousQuotaOf(setting.quota, setting.anonymousPercent) + 1;
      counting = Promise.all([
        devices.countHeldDevices(projectId, { anonymous: false, limit: setting.quota + 1 }),
        devices.countHeldDevices(projectId, { anonymous: true, limit: anonymousLimit }),
      ])
        .then(([held, anonymousHeld]) => {
          const tally = { counted: held, anonymousCounted: anonymousHeld, countedAt: startedAt, added: 0, anonymousAdded: 0 };
          this.#tallies.set(projectId, tally);
          return tally;
        })
        .finally(() => this.#counting.delete(projectId));
      this.#counting.set(projectId, counting);
    }
    return counting;
  }
}
