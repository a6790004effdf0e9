import { resolve } from 'node:path';
import { localSecretKey } from '@herald/admin';

/** Local mode: `npm start` on this checkout made a state dir with the credential key in it. */
export interface LocalMode {
  stateDir: string;
}

export const DEFAULT_STATE_DIR = resolve(import.meta.dirname, '../../../.herald');

/**
 * With HERALD_SECRET_KEY unset and a local state dir holding `secret.key`,
 * the CLI runs in local mode: it uses that key (the one `npm start` gave the
 * delivery service). A set HERALD_SECRET_KEY always wins and means not local.
 */
export async function resolveLocalMode(
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ env: Readonly<Record<string, string | undefined>>; local?: LocalMode }> {
  if (env.HERALD_SECRET_KEY !== undefined && env.HERALD_SECRET_KEY !== '') return { env };
  const stateDir = env.HERALD_STATE_DIR ?? DEFAULT_STATE_DIR;
  const key = await localSecretKey(stateDir, { create: false });
  if (key === undefined) return { env };
  return { env: { ...env, HERALD_SECRET_KEY: key }, local: { stateDir } };
}
