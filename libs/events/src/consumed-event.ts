import type { HeraldEvent } from './catalog.ts';

/** A decoded event with its Kafka position, which projections use as their idempotency guard. */
export interface ConsumedEvent<E extends HeraldEvent = HeraldEvent> {
  event: E;
  /** Logical topic name (without the installation prefix). */
  topic: string;
  partition: number;
  offset: number;
}
