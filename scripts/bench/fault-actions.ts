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
    smallSendAt: () => {
      options.startSmallSend();
      return Promise.resolve('10-device notification sent to a second topic');
    },
  };
}
