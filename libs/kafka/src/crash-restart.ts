import type { Consumer, ConsumerRunConfig } from 'kafkajs';
import type { Logger } from '@herald/log';
import { backoffDelay, systemClock, type BackoffPolicy } from '@herald/retry';

/** Back-off before running a consumer again after a crash kafkajs does not restart (the first after about a second). */
const CRASH_BACKOFF: BackoffPolicy = { minMs: 1_000, maxMs: 30_000 };

export interface CrashRestarts {
  /** Runs the consumer, and again with the same configuration after each crash kafkajs does not restart itself. */
  run(config: ConsumerRunConfig): Promise<void>;
  /** The consumer did some work: the next crash waits the shortest back-off again. */
  progressed(): void;
  /** No more runs; waits for one under way. Call before disconnecting. */
  stop(): Promise<void>;
}

/**
 * kafkajs restarts a crashed consumer only after a retriable error; after
 * any other (a transaction's commit refused for good, for instance) it
 * disconnects it and stops, and with it the stage, until the process
 * restarts. This logs every crash and runs the consumer again with back-off
 * (1 s, doubling to 30 s while it keeps crashing): it rejoins its group and
 * resumes from its committed positions, as after a kill -9.
 */
export function crashRestarts(consumer: Consumer, logger: Logger): CrashRestarts {
  let config: ConsumerRunConfig | undefined;
  let stopping = false;
  let crashes = 0;
  let restarting: Promise<void> = Promise.resolve();
  // Not retry(): the wait comes before each run, and its count spans crashes (progressed() resets it), not one loop's attempts.
  const runAgain = async () => {
    for (;;) {
      await systemClock.sleep(backoffDelay(crashes, CRASH_BACKOFF, systemClock.random()));
      if (stopping || config === undefined) return;
      try {
        await consumer.connect();
        await consumer.run(config);
        logger.warn({ crashes }, 'consumer running again after a crash kafkajs does not restart');
        return;
      } catch (error) {
        crashes += 1;
        logger.error({ err: error, crashes }, 'consumer could not run again after its crash; retrying');
      }
    }
  };
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    // A condition Kafka recovers from by itself (kafkajs restarts the consumer): one plain line, no stack.
    if (payload.restart) {
      logger.warn({ reason: payload.error.message }, 'consumer restarting after a passing Kafka error');
      return;
    }
    logger.error({ err: payload.error }, 'consumer crashed');
    if (stopping) return;
    crashes += 1;
    restarting = restarting.then(runAgain);
  });
  return {
    run: async (runConfig) => {
      config = runConfig;
      await consumer.run(runConfig);
    },
    progressed: () => {
      crashes = 0;
    },
    stop: async () => {
      stopping = true;
      await restarting;
    },
  };
}
