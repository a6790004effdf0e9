export type LogMethod = 'error' | 'warn' | 'info' | 'debug' | 'silent';

export interface KafkajsLogEntry {
  namespace: string;
  level: LogMethod;
  message: string;
}

/**
 * The level Herald logs a kafkajs line at. kafkajs logs every broker error
 * response at ERROR from its connection layer ("Response Metadata(...)",
 * "Response CreateTopics(...)") although the caller retries it or gets it
 * thrown (and Herald logs what it throws); at start-up the broker answers
 * "coordinator is loading" and "not hosting this partition" for seconds.
 * Those lines, and the producer's warning about the retry limit Herald sets
 * on purpose, go to debug. So does the producer's line for each retry of a
 * transaction begun while the last one's commit markers were still being
 * written (CONCURRENT_TRANSACTIONS): a third of the delivery's transactions
 * at 300 one-device sends/s, about ten error lines a second, each retried
 * 10 ms later. A consumer's crash on a condition the cluster recovers from
 * by itself (a coordinator still loading at first start, a leader or
 * coordinator moving) goes to debug with its stack, and so does kafkajs'
 * "Restarting the consumer in …": Herald's crash listener (crash-restart.ts)
 * says it in one plain line. Other crashes, connection failures and
 * everything else keep their level.
 */
export function kafkajsLogLevel(entry: KafkajsLogEntry): LogMethod {
  if (entry.namespace === 'Connection' && entry.message.startsWith('Response ')) return 'debug';
  if (entry.message.startsWith('Limiting retries for the idempotent producer')) return 'debug';
  if (entry.namespace === 'Consumer' && entry.message.startsWith('Crash: ') && PASSING_CONDITIONS.some((text) => entry.message.includes(text))) return 'debug';
  if (entry.namespace === 'Consumer' && entry.message.startsWith('Restarting the consumer in ')) return 'debug';
  if (entry.message.startsWith('Failed to send messages: ') && entry.message.includes(CONCURRENT_TRANSACTIONS_MESSAGE)) return 'debug';
  return entry.level;
}

/** kafkajs's text for CONCURRENT_TRANSACTIONS (error code 51). */
const CONCURRENT_TRANSACTIONS_MESSAGE = 'another concurrent operation on the same transaction was ongoing';

/** kafkajs' texts for broker answers that end by themselves (the consumer is restarted and rejoins). */
const PASSING_CONDITIONS = [
  'The coordinator is loading',
  'The group coordinator is not available',
  'This is not the correct coordinator',
  'There is no leader for this topic-partition',
  'This server is not the leader for that topic-partition',
  'The group is rebalancing',
];
