import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSecretKey } from './secret-box.ts';

/**
 * The key that encrypts provider credentials in local mode, kept in
 * `<stateDir>/secret.key` (mode 0600): `npm start` creates it, the CLI reads
 * it when HERALD_SECRET_KEY is unset. Undefined when absent and not `create`.
 */
export async function localSecretKey(stateDir: string, options: { create: boolean }): Promise<string | undefined> {
  const file = join(stateDir, 'secret.key');
  const saved = await readFile(file, 'utf8').then((text) => text.trim(), () => '');
  if (saved !== '' || !options.create) return saved === '' ? undefined : saved;
  const key = generateSecretKey();
  await mkdir(stateDir, { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
}
