import { loadConfig } from '@herald/config';
import { connectMongo, ensureAdminIndexes, type MongoHandle } from '@herald/mongo';
import { AdminStore } from '@herald/admin';
import { CliConfig } from './config.ts';

export interface CliContext {
  admin: AdminStore;
  mongo: MongoHandle;
  out: (line: string) => void;
}

/** Opens what a command needs, runs it, and always closes the connection. */
export async function withContext(env: Readonly<Record<string, string | undefined>>, run: (context: CliContext) => Promise<void>): Promise<void> {
  const config = loadConfig(CliConfig, env);
  const mongo = await connectMongo(config.MONGO_URL, 'herald-cli');
  try {
    await ensureAdminIndexes(mongo.db);
    await run({ admin: new AdminStore(mongo.db), mongo, out: (line) => process.stdout.write(`${line}\n`) });
  } finally {
    await mongo.close();
  }
}
