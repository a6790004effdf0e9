import type { HeraldKafka } from './create-kafka.ts';
import { lagFrom, type PartitionEnd } from './offsets.ts';
import { readLogRanges, type LogRange } from './read-log-range.ts';

export interface GroupLag {
  group: string;
  topic: string;
  /** Records a group has not committed past, transaction markers and aborted records not counted (see `exact`). */
  lag: number;
  partitions: number;
  /** False when a gap was too long to read: `lag` then counts its offsets, markers included (an upper bound). */
  exact: boolean;
}

/** A gap longer than this (offsets between a group's commit and the end of one partition) is not read: its span is reported. */
export const LAG_READ_SPAN = 10_000;
/** At most this many offsets are read for one lag report, over every gap. */
export const LAG_READ_TOTAL = 100_000;

interface Gap {
  row: number;
  topic: string;
  partition: number;
  from: number;
  to: number;
}

/**
 * Lag per (group, topic), logical names. `known` lists groups with the topics
 * they consume, so a group that has committed nothing yet still shows its
 * full lag; other groups whose names start with `groupPrefix` are added with
 * whatever topics they have committed offsets for.
 *
 * Lag is records, by the same rule as every "caught up" (caught-up.ts): a
 * group whose commit sits before nothing but transaction markers (or
 * aborted records) is caught up, so a quiet stack reads 0. Offsets between
 * a commit and the end are read to tell records from markers, once for all
 * groups, when the gaps are short (LAG_READ_SPAN, LAG_READ_TOTAL); a longer
 * gap is reported as its span and the row is marked not exact.
 */
export async function consumerGroupLag(kafka: HeraldKafka, known: ReadonlyArray<{ group: string; topics: readonly string[] }>, groupPrefix: string): Promise<GroupLag[]> {
  const rows: GroupLag[] = [];
  const gaps: Gap[] = [];
  const admin = kafka.client.admin();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    const knownNames = new Set(known.map((item) => kafka.group(item.group)));
    const others = groups
      .map((group) => group.groupId)
      .filter((id) => id.startsWith(kafka.group(groupPrefix)) && !knownNames.has(id))
      .sort();
    const endsOf = new Map<string, PartitionEnd[]>();
    const addRows = async (groupId: string, topics: readonly string[] | undefined) => {
      const committed = await admin.fetchOffsets(topics === undefined ? { groupId } : { groupId, topics: [...topics] });
      for (const { topic, partitions } of committed) {
        let ends = endsOf.get(topic);
        if (ends === undefined) {
          ends = (await admin.fetchTopicOffsets(topic)).map((item) => ({ partition: item.partition, low: Number(item.low), high: Number(item.high) }));
          endsOf.set(topic, ends);
        }
        const row = rows.length;
        rows.push({ group: groupId.slice(kafka.prefix.length), topic: topic.slice(kafka.prefix.length), lag: 0, partitions: ends.length, exact: true });
        for (const end of ends) {
          const done = partitions.find((partition) => partition.partition === end.partition);
          const from = lagFrom(end, Number(done?.offset ?? -1));
          if (end.high > from) gaps.push({ row, topic: topic.slice(kafka.prefix.length), partition: end.partition, from, to: end.high });
        }
      }
    };
    for (const item of known) await addRows(kafka.group(item.group), item.topics.map((topic) => kafka.topic(topic)));
    for (const groupId of others) await addRows(groupId, undefined);
  } finally {
    await admin.disconnect();
  }
  const { read, unread } = gapsToRead(gaps);
  const offsets = await recordOffsets(kafka, read);
  for (const gap of gaps) {
    const row = rows[gap.row]!;
    if (unread.has(gap)) {
      row.lag += gap.to - gap.from;
      row.exact = false;
    } else {
      row.lag += (offsets.get(`${gap.topic}:${gap.partition}`) ?? []).filter((offset) => offset >= gap.from && offset < gap.to).length;
    }
  }
  return rows;
}

/** One range per partition covering every short gap on it (shortest first, within the total), and the gaps left unread (pure). */
export function gapsToRead(gaps: readonly Gap[]): { read: LogRange[]; unread: Set<Gap> } {
  const byPartition = new Map<string, LogRange>();
  const unread = new Set<Gap>();
  let total = 0;
  for (const gap of [...gaps].sort((a, b) => a.to - a.from - (b.to - b.from))) {
    const key = `${gap.topic}:${gap.partition}`;
    const range = byPartition.get(key);
    const from = Math.min(range?.from ?? gap.from, gap.from);
    const to = Math.max(range?.to ?? gap.to, gap.to);
    const added = to - from - (range === undefined ? 0 : range.to - range.from);
    if (gap.to - gap.from > LAG_READ_SPAN || total + added > LAG_READ_TOTAL) {
      unread.add(gap);
      continue;
    }
    total += added;
    byPartition.set(key, { topic: gap.topic, partition: gap.partition, from, to });
  }
  return { read: [...byPartition.values()], unread };
}

/** The offsets of the records (not markers, not aborted) in the ranges, per `topic:partition`. */
async function recordOffsets(kafka: HeraldKafka, ranges: readonly LogRange[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (ranges.length === 0) return out;
  await readLogRanges(kafka, ranges, {
    keep: (record) => {
      const key = `${record.topic}:${record.partition}`;
      const list = out.get(key) ?? [];
      list.push(record.offset);
      out.set(key, list);
      return false;
    },
    maxRecords: LAG_READ_TOTAL,
    timeoutMs: 30_000,
    purpose: 'lag',
  });
  return out;
}
