import type { FaultPlan } from './args.ts';

export type FaultName = keyof FaultPlan;

/** Faults whose point (P % of the targeted devices delivered) is reached and that have not fired yet, lowest point first. */
export function dueFaults(plan: FaultPlan, deliveredPct: number, fired: ReadonlySet<FaultName>): FaultName[] {
  return (Object.entries(plan) as Array<[FaultName, number | undefined]>)
    .filter(([name, at]) => at !== undefined && deliveredPct >= at && !fired.has(name))
    .sort(([, a], [, b]) => (a ?? 0) - (b ?? 0))
    .map(([name]) => name);
}

/** Batches a killed delivery instance can have in flight: what it may re-send. Each sender (APNs, FCM) works on DELIVERY_CONCURRENCY batches at once. */
export const DELIVERY_CONCURRENCY = 8;
export const SENDERS = 2;
export function batchesInFlightBound(uncommittedBatches: number): number {
  return Math.max(0, Math.min(uncommittedBatches, DELIVERY_CONCURRENCY * SENDERS));
}

/**
 * Fires the plan's faults as deliveries progress, one at a time in point
 * order (a fault still under way delays the next), and logs what each did.
 * `check` is cheap enough to call on every distinct delivery.
 */
export function createFaultRunner(plan: FaultPlan, devices: number, actions: Record<FaultName, () => Promise<string>>, log: (line: string) => void) {
  const fired = new Set<FaultName>();
  const queue: FaultName[] = [];
  const points = Object.values(plan).filter((at): at is number => at !== undefined);
  let next = points.length === 0 ? Infinity : Math.min(...points);
  let running: Promise<void> = Promise.resolve();
  const errors: string[] = [];
  return {
    check(distinct: number) {
      const pct = (100 * distinct) / devices;
      if (pct < next) return;
      for (const name of dueFaults(plan, pct, fired)) {
        fired.add(name);
        queue.push(name);
        running = running.then(async () => {
          const started = `${name} at ${pct.toFixed(1)} % delivered`;
          try {
            log(`${started}: ${await actions[name]()}`);
          } catch (error) {
            const text = `${started} failed: ${error instanceof Error ? error.message : String(error)}`;
            errors.push(text);
            log(text);
          }
        });
      }
      const left = points.filter((at) => at > pct);
      next = left.length === 0 ? Infinity : Math.min(...left);
    },
    /** Resolves when every fault fired so far has finished. */
    settled: () => running,
    fired: () => [...fired],
    errors: () => errors,
  };
}
