import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@herald/errors';
import { AudienceIndex } from './audience-index.ts';

export interface DeliveryInstance {
  /** Stable across restarts with the same directory: names this instance in the fan-out group and its transactional producers. */
  id: string;
  index: AudienceIndex;
  close(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Opens a delivery instance's directory: its audience index, and its id.
 * One process per directory: two would fence each other's Kafka
 * transactions and share one checkpoint, so a second is refused while the
 * first lives (a dead one's pid file is taken over).
 */
export function openInstance(dir: string): DeliveryInstance {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pidFile = join(dir, 'owner.pid');
  let owner: number | undefined;
  try {
    owner = Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    owner = undefined;
  }
  if (owner !== undefined && owner !== process.pid && Number.isInteger(owner) && owner > 0 && alive(owner)) {
    throw new ConfigError([`DELIVERY_INDEX_DIR ${dir} is used by process ${owner}: give each delivery process a directory of its own`]);
  }
  writeFileSync(pidFile, String(process.pid), { mode: 0o600 });
  const index = AudienceIndex.open(join(dir, 'index'));
  const id = index.meta('instance', () => `delivery-${randomUUID().slice(0, 8)}`);
  return {
    id,
    index,
    close: async () => {
      await index.close();
      rmSync(pidFile, { force: true });
    },
  };
}
