// The delivery instances' audience indexes, seen from outside: how far each
// partition's index has applied herald.device-events (the delivery's
// /metrics), and how much of the index's memory map is resident (/proc).
import { readFileSync } from 'node:fs';
import type { Deadline } from './deadline.ts';

/** `herald_audience_index_next_offset{partition}` of one /metrics page (pure): next offset to apply, by partition. */
export function parseIndexOffsets(text: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const match of text.matchAll(/^herald_audience_index_next_offset\{[^}]*partition="(\d+)"[^}]*\} ([0-9.e+-]+)$/gm)) {
    out.set(Number(match[1]), Number(match[2]));
  }
  return out;
}

/**
 * Per partition, the furthest any instance's index got (pure): a partition
 * that moved is still reported by the instance that held it, at the offset
 * it stopped at, so the furthest one is the index now serving it.
 */
export function furthest(pages: ReadonlyArray<Map<number, number>>): Map<number, number> {
  const out = new Map<number, number>();
  for (const page of pages) for (const [partition, next] of page) out.set(partition, Math.max(out.get(partition) ?? 0, next));
  return out;
}

/** Partitions whose index has not applied up to `ends` (pure; an empty partition needs nothing). */
export function partitionsBehind(applied: ReadonlyMap<number, number>, ends: ReadonlyMap<number, number>): number[] {
  return [...ends].filter(([partition, end]) => end > 0 && (applied.get(partition) ?? 0) < end).map(([partition]) => partition);
}

/** Every instance's index offsets (an instance that does not answer, e.g. killed, counts for nothing). */
export async function readIndexOffsets(metricsUrls: readonly string[]): Promise<Map<number, number>> {
  const pages = await Promise.all(
    metricsUrls.map((url) => fetch(url, { signal: AbortSignal.timeout(5_000) }).then((response) => (response.ok ? response.text() : ''), () => '')),
  );
  return furthest(pages.map(parseIndexOffsets));
}

/** Polls until every partition's index has applied device-events up to `ends`; resolves with the performance.now() it saw that. */
export async function waitForIndex(options: {
  metricsUrls: () => readonly string[];
  ends: ReadonlyMap<number, number>;
  deadline: Deadline;
  progress: (text: string) => void;
  pollMs?: number;
}): Promise<number> {
  for (;;) {
    const applied = await readIndexOffsets(options.metricsUrls());
    const behind = partitionsBehind(applied, options.ends);
    if (behind.length === 0) return performance.now();
    const left = behind.reduce((sum, partition) => sum + (options.ends.get(partition)! - (applied.get(partition) ?? 0)), 0);
    options.progress(`audience index: ${left} device-events records left to apply on partitions ${behind.join(', ')}`);
    options.deadline.check('building the audience index', `${left} records left on partitions ${behind.join(', ')}`);
    await new Promise((done) => setTimeout(done, options.pollMs ?? 250));
  }
}

/**
 * Resident bytes of the mappings of files under `dir` in /proc/<pid>/smaps
 * (pure over its text): pages of the index's files this process has mapped.
 * The SQLite index reads with pread into its own page cache (counted in the
 * process's RSS, not here), so this is about 0; an LMDB index (as older
 * releases kept it) read through a file mapping, and its pages showed
 * here.
 */
export function residentUnder(smaps: string, dir: string): number {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  let bytes = 0;
  let inside = false;
  for (const line of smaps.split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header !== null) {
      inside = header[1]!.startsWith(prefix);
      continue;
    }
    if (!inside) continue;
    const rss = /^Rss:\s+(\d+) kB$/.exec(line);
    if (rss !== null) bytes += Number(rss[1]) * 1024;
  }
  return bytes;
}

/** The index's resident bytes summed over live delivery instances (0 for one whose smaps cannot be read). */
export function indexResidentBytes(instances: ReadonlyArray<{ pid: number; dir: string }>): number {
  let total = 0;
  for (const { pid, dir } of instances) {
    try {
      total += residentUnder(readFileSync(`/proc/${pid}/smaps`, 'utf8'), dir);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** Samples the index's resident bytes every `intervalMs` and keeps the peak. */
export function watchIndexMemory(instances: () => ReadonlyArray<{ pid: number; dir: string }>, intervalMs = 2_000) {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, indexResidentBytes(instances()));
  };
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    /** The peak so far, with one more sample. */
    peakBytes: () => {
      sample();
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}
