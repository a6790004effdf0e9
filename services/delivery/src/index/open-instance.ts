import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { open as openLmdb } from 'lmdb';
import { ConfigError } from '@herald/errors';
import { AudienceIndex, INDEX_FORMAT } from '@herald/audience-index';

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

/** Which log the index was built from, as the process finds it at start. */
export interface LogAtStart {
  /** The cluster's id and the device-events topic's name: another cluster or topic prefix is another log. */
  identity: string;
  /** End offset of each device-events partition now. */
  deviceEnds: readonly number[];
}

/**
 * Whether an index's checkpoints can belong to this log (pure): the same
 * identity, and no partition applied past the partition's end (a topic
 * deleted and created again under the same name starts from 0).
 */
export function indexFitsLog(recorded: string | undefined, checkpoints: Readonly<Record<string, number>>, log: LogAtStart): boolean {
  if (recorded !== undefined && recorded !== log.identity) return false;
  return Object.entries(checkpoints).every(([partition, next]) => next <= (log.deviceEnds[Number(partition)] ?? 0));
}

/**
 * Opens a delivery instance's directory: its audience index, and its id.
 * One process per directory: two would fence each other's Kafka
 * transactions and share one checkpoint, so a second is refused while the
 * first lives (a dead one's pid file is taken over). An index built from
 * another log (another cluster or topic prefix, or a topic created anew)
 * is deleted and rebuilt: its checkpoints would skip records of this one.
 */
export async function openInstance(dir: string, log: LogAtStart, onRebuild?: (reason: string) => void): Promise<DeliveryInstance> {
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
  const lmdbId = await takeLmdbInstanceId(join(dir, 'index'));
  const indexDir = join(dir, 'audience');
  let index = AudienceIndex.open(indexDir);
  // Meta values are strings, which read alike in every format: an index of an older one still tells its id.
  const olderId = lmdbId ?? (index.storedMeta('format') === INDEX_FORMAT ? undefined : index.storedMeta('instance'));
  let rebuild: string | undefined;
  if (olderId !== undefined) rebuild = `the index in ${dir} was written in an older format: rebuilding it from the log`;
  else if (!indexFitsLog(index.storedMeta('log'), index.checkpoints(), log)) rebuild = `the index in ${dir} was built from another log than ${log.identity}: rebuilding it from this one`;
  if (rebuild !== undefined) {
    onRebuild?.(rebuild);
    await index.close();
    rmSync(indexDir, { recursive: true, force: true });
    index = AudienceIndex.open(indexDir);
  }
  index.meta('format', () => INDEX_FORMAT);
  index.meta('log', () => log.identity);
  // The same instance after a format change: its transactional ids fence what it left in flight.
  const id = index.meta('instance', () => olderId ?? `delivery-${randomUUID().slice(0, 8)}`);
  return {
    id,
    index,
    close: async () => {
      await index.close();
      rmSync(pidFile, { force: true });
    },
  };
}

/**
 * The instance id of an index in LMDB, where older releases
 * kept it (`<dir>/index`), and that index deleted; undefined when there
 * is none. The id is kept so the instance's transactional ids still fence
 * what it left in flight; the index itself is rebuilt from the log.
 */
async function takeLmdbInstanceId(path: string): Promise<string | undefined> {
  if (!existsSync(join(path, 'data.mdb'))) return undefined;
  const older = openLmdb<unknown, Array<string | number>>({ path, readOnly: true });
  const id = older.get(['meta', 'instance']);
  await older.close();
  rmSync(path, { recursive: true, force: true });
  return typeof id === 'string' ? id : undefined;
}
