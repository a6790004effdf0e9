import { withLogAdmin, type HeraldKafka } from '@herald/kafka';
import type { Db } from '@herald/mongo';

/** Asks Kafka and MongoDB whether they answer; returns what does not. */
export function readinessCheck(kafka: HeraldKafka, db: Db): () => Promise<string[]> {
  return async () => {
    const problems: string[] = [];
    try {
      await withLogAdmin(kafka, (admin) => admin.ping());
    } catch {
      problems.push('Kafka is not reachable');
    }
    try {
      await db.command({ ping: 1 });
    } catch {
      problems.push('MongoDB is not reachable');
    }
    return problems;
  };
}
