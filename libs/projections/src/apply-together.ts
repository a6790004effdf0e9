import type { ConsumedEvent } from '@herald/kafka';

type Apply = (records: readonly ConsumedEvent[]) => Promise<void>;

interface Waiting {
  records: readonly ConsumedEvent[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Applies chunks that arrive while an apply is in flight together, in the
 * next one. Each store command has a fixed cost (on the local store, a SQLite
 * transaction and a statement per document), and under load every partition
 * of a topic hands its own small chunk at once: one command for all of them
 * costs a fraction of one each. A lone chunk goes at once, so nothing waits
 * when there is no load.
 *
 * Safe because chunks of different partitions never touch the same document
 * (a document's events share a key; counter documents are per partition).
 * If the combined apply fails, each chunk is applied alone, so an error (a
 * poison record) reaches only the chunk it came from, which retries or
 * dead-letters it as before.
 */
export function applyTogether(apply: Apply): Apply {
  let waiting: Waiting[] = [];
  let running = false;

  const applyAlone = async (item: Waiting) => {
    try {
      await apply(item.records);
      item.resolve();
    } catch (error) {
      item.reject(error);
    }
  };

  const drain = async () => {
    running = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting;
        waiting = [];
        if (batch.length === 1) {
          await applyAlone(batch[0]!);
          continue;
        }
        try {
          await apply(batch.flatMap((item) => item.records));
          for (const item of batch) item.resolve();
        } catch {
          for (const item of batch) await applyAlone(item);
        }
      }
    } finally {
      running = false;
    }
  };

  return (records) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ records, resolve, reject });
      if (!running) void drain();
    });
}
