import type { TopicMessages } from 'kafkajs';
import { AppError } from '@herald/errors';
import type { HeraldKafka } from '../create-kafka.ts';
import { ensurePlainTopics } from '../ensure-topics.ts';
import { splitByBytes } from '../event-producer.ts';
import { producerConfig } from '../producer-config.ts';
import { TRANSACTION_TIMEOUT_MS } from '../transactional-producer.ts';
import { readDeadLetters, readRedriveLog, REDRIVE_LOG_TOPIC } from './dead-letter-log.ts';
import type { DeadLetterFilter } from './letters.ts';
import { redriveCopy, selectForRedrive, type RedriveLogEntry, type RedriveSelection } from './redrive-copy.ts';

/** One transactional id for every redrive of an installation: a redrive that starts fences any other still running. */
const REDRIVE_TRANSACTIONAL_ID = 'herald.dlq-redrive';

export interface RedriveOptions {
  dryRun?: boolean;
  now?: () => Date;
  /** Awaited between reading the logs and writing the copies: a test holds one redrive there while another runs. */
  afterRead?: () => Promise<void>;
}

/**
 * Writes the matching dead letters back to their source topics, each at
 * most once in the life of the installation: the copies and their entries
 * in the redrive log (REDRIVE_LOG_TOPIC) are committed in one Kafka
 * transaction, and the log is read after this redrive's transaction fenced
 * every earlier one. So two redrives at once cannot both write a dead
 * letter: the one fenced fails before committing anything and says so.
 */
export async function redriveDeadLetters(kafka: HeraldKafka, filter: DeadLetterFilter, options: RedriveOptions = {}): Promise<RedriveSelection> {
  const now = options.now ?? (() => new Date());
  if (options.dryRun === true) return selectForRedrive(await readDeadLetters(kafka), filter, await readRedriveLog(kafka));

  await ensurePlainTopics(kafka, [kafka.topic(REDRIVE_LOG_TOPIC)], { 'cleanup.policy': 'compact' });
  const producer = kafka.client.producer(producerConfig({ transactionalId: kafka.group(REDRIVE_TRANSACTIONAL_ID), transactionTimeout: TRANSACTION_TIMEOUT_MS }));
  await producer.connect();
  try {
    // Beginning the transaction registers the transactional id (kafkajs's connect does not): from here on an
    // earlier redrive can no longer commit, and one that committed already is complete, so the log read next holds it.
    const transaction = await producer.transaction();
    try {
      const selection = selectForRedrive(await readDeadLetters(kafka), filter, await readRedriveLog(kafka));
      if (selection.selected.length === 0) {
        await transaction.abort();
        return selection;
      }
      await options.afterRead?.();
      const at = now();
      const copies = selection.selected.map((entry) => ({ entry, copy: redriveCopy(entry, at) }));
      const topicMessages: TopicMessages[] = [
        ...[...Map.groupBy(copies, ({ copy }) => copy.topic)].map(([topic, group]) => ({
          topic: kafka.topic(topic),
          messages: group.map(({ copy }) => ({ partition: copy.partition, key: copy.key, value: copy.value, headers: copy.headers })),
        })),
        {
          topic: kafka.topic(REDRIVE_LOG_TOPIC),
          messages: copies.map(({ entry, copy }) => ({
            key: entry.ref,
            value: JSON.stringify({ redriven_at: at.toISOString(), to: `${copy.topic}:${copy.partition}` } satisfies RedriveLogEntry),
          })),
        },
      ];
      for (const part of splitByBytes(topicMessages)) await transaction.sendBatch({ acks: -1, topicMessages: part.topicMessages });
      await transaction.commit();
      return selection;
    } catch (cause) {
      await transaction.abort().catch(() => undefined);
      throw new AppError('CONFLICT', 'the redrive was not committed (another redrive started meanwhile, or Kafka failed): nothing of it was written; run it again', { cause });
    }
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
}
