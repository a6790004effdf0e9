import { withLogAdmin, type HeraldKafka } from '@herald/kafka';
import { pingStore, type Store } from '@herald/mongo';

/** Asks Kafka and MongoDB whether they answer; returns what does not. */
export function readinessCheck(kafka: HeraldKafka, db: Store): () => Promise<string[]> {
  return async () => {
    const problems: string[] = [];
    try {
      await withLogAdmin(kafka, (admin) => admin.ping());
    } catch {
      problems.push('Kafka is not reachable');
    }
    try {
      await pingStore(db);
    } catch {
      problems.push('MongoDB is not reachable');
    }
    return problems;
  };
}
