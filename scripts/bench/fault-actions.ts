import { TOPICS } from '@herald/events';
import { busiestLeader, partitionLeaders, type HeraldKafka } from '@herald/kafka';
import { batchesInFlightBound, type FaultName } from './faults.ts';
import type { InfraControl } from './infra-control.ts';
import type { PositionReader } from './offsets.ts';
import type { BenchSystem } from './system.ts';

/** What each fault option does to the running stack; each resolves with a line for the log. */
export function faultActions(options: {
  system: BenchSystem;
  control: InfraControl | undefined;
  positions: PositionReader;
  /** Adds to the duplicate bound: batches in flight on the instance killed. */
  onKilled: (batchesInFlight: number) => void;
  startSmallSend: () => void;
  kafka: HeraldKafka;
  /** `--kill-broker-at`: seconds from the kill to starting the broker again. */
  restartBrokerAfterS: number;
  /** The broker killed, and ms until its partitions had live leaders again (null: not yet, or not within 120 s). */
  onBrokerKilled: (node: number, failoverMs: number | null) => void;
  /** Work a fault leaves running (the killed broker's restart): the run waits for it before judging. */
  later: (work: Promise<unknown>) => void;
  log: (line: string) => void;
}): Record<FaultName, () => Promise<string>> {
  const { system, control } = options;
  const needsLocal = () => Promise.reject(new Error('needs the local Kafka + store the run starts itself (KAFKA_BROKERS / MONGO_URL unset)'));
  return {
    killDeliveryAt: async () => {
      // Uncommitted DeliveryBatch records now, capped by what one instance's senders work on at once.
      const at = await options.positions.read().catch(() => undefined);
      const uncommitted = at === undefined ? Number.POSITIVE_INFINITY : Math.max(0, at.batchesQueued - at.batchesDone);
      const inFlight = batchesInFlightBound(uncommitted);
      options.onKilled(inFlight);
      return `${await system.killDelivery()}; ${uncommitted} batches uncommitted, ≤ ${inFlight} in flight on it: duplicate bound +${inFlight * 500}`;
    },
    addDeliveryAt: () => system.addDelivery(),
    restartBrokerAt: () => (control === undefined ? needsLocal() : control.restartBroker()),
    restartStoreAt: () => (control === undefined ? needsLocal() : control.restartStore()),
    killBrokerAt: async () => {
      if (control === undefined) return needsLocal();
      const { kafka } = options;
      const watched = [TOPICS.deviceEvents, ...Object.values(TOPICS).filter((name) => name.startsWith('herald.deliveries'))].map((name) => kafka.topic(name));
      const before = await partitionLeaders(kafka, watched);
      const node = busiestLeader(before);
      if (node === undefined) throw new Error('no partition of the delivery and device-event topics has a leader');
      const total = [...before.values()].reduce((sum, n) => sum + n, 0);
      // Transactions open on the killed broker's partitions abort and their batches are sent again: each
      // instance's senders can lose what they have in flight, at the kill and again when leaders move back.
      const at = await options.positions.read().catch(() => undefined);
      const uncommitted = at === undefined ? Number.POSITIVE_INFINITY : Math.max(0, at.batchesQueued - at.batchesDone);
      const inFlight = Math.min(uncommitted, batchesInFlightBound(Number.POSITIVE_INFINITY) * options.system.deliveryMetricsUrls().length);
      options.onKilled(2 * inFlight);
      const killedAt = performance.now();
      const killed = await control.killBroker(node);
      options.onBrokerKilled(node, null);
      const restart = new Promise<void>((resolve) => setTimeout(resolve, options.restartBrokerAfterS * 1000)).then(async () => {
        const started = performance.now();
        await control.startAgain();
        options.log(`broker ${node} started again ${options.restartBrokerAfterS} s after the kill, ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      });
      options.later(restart.catch((error: unknown) => options.log(`starting broker ${node} again failed: ${error instanceof Error ? error.message : String(error)}`)));
      // Failed over once every partition it led has a live leader (a partition without one is not counted).
      // Measured beside the run, so that the next fault (the transactional send) goes out while it is down.
      options.later(
        (async () => {
          let failoverMs: number | null = null;
          while (performance.now() - killedAt < 120_000) {
            const now = await partitionLeaders(kafka, watched).catch(() => undefined);
            if (now !== undefined && !now.has(node) && [...now.values()].reduce((sum, n) => sum + n, 0) === total) {
              failoverMs = performance.now() - killedAt;
              break;
            }
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          options.onBrokerKilled(node, failoverMs);
          options.log(`broker ${node}: ${failoverMs === null ? 'no new leaders within 120 s' : `its partitions had new leaders ${failoverMs.toFixed(0)} ms after the kill`}`);
        })(),
      );
      return `${killed} (it led ${before.get(node)} of ${total} delivery and device-event partitions; duplicate bound +${2 * inFlight * 500})`;
    },
    smallSendAt: () => {
      options.startSmallSend();
      return Promise.resolve('10-device notification sent to a second topic');
    },
  };
}
