import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSecretKey } from '@herald/admin';

/** The key that encrypts provider credentials in local mode, generated once into the local data dir. */
export async function localSecretKey(stateDir: string): Promise<string> {
  const file = join(stateDir, 'secret.key');
  const saved = await readFile(file, 'utf8').then((text) => text.trim(), () => '');
  if (saved !== '') return saved;
  const key = generateSecretKey();
  await mkdir(stateDir, { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
}
