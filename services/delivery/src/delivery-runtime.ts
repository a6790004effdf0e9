import type { GroupTransactions, HeraldKafka, LogAdmin, RunningConsumer } from '@herald/kafka';
import type { DeliveryInstance } from './index/open-instance.ts';
import type { DeliveryControls } from './control/delivery-controls.ts';
import type { FollowedLog } from './index/follow-log.ts';

/** What the roles of one delivery process share, set up once by startDelivery (start-delivery.ts). */
export interface DeliveryRuntime {
  kafka: HeraldKafka;
  admin: LogAdmin;
  /** This process's directory: its audience index and its id. */
  instance: DeliveryInstance;
  /** Cancels, pauses, paces and provider push-back, from herald.delivery-control. */
  controls: DeliveryControls;
  /** Topic ends as this process follows them (topic names for the coordinator). */
  follower: FollowedLog;
  /** Partitions of herald.device-events, as many as herald.fanout-tasks has (checked at start). */
  partitionCount: number;
  /** A consumer group's commits, through the process's one transactional producer (its stages share its transactions). */
  transactional: (group: string) => GroupTransactions;
  /** Every consumer a role starts goes here: startDelivery waits for them to join and stops them. */
  consumers: RunningConsumer[];
}
