import type { BenchInfra } from './infra.ts';
import { countsMatchLedger, readLedgerCountsOf } from './ledger.ts';
import type { PositionReader } from './offsets.ts';

export interface TransactionalJudgeFigures {
  deadLetters: number | null;
  deadLetterTopics: Record<string, number>;
  /** Notifications whose API counts were compared with the ledger, and how many differ. */
  countsChecked: number;
  countsMismatched: number | null;
  /** A few differing notifications, for the report. */
  mismatchSamples: Array<{ id: string; counts: Record<string, number> | null; ledger: Record<string, number> | null }>;
  /** Delivered devices over every send's ledger. */
  ledgerDelivered: number | null;
  /** Seconds until the notifications and ledger projections had caught up. */
  caughtUpS: number | null;
}

const GET_IN_FLIGHT = 16;

async function countsOf(baseUrl: string, apiKey: string, id: string): Promise<Record<string, number> | null> {
  const response = await fetch(`${baseUrl}/api/v1/notifications/${id}`, { headers: { authorization: `Bearer ${apiKey}` } }).catch(() => undefined);
  if (response?.ok !== true) return null;
  return ((await response.json()) as { data: { counts?: Record<string, number> } }).data.counts ?? null;
}

/**
 * Once the notifications and ledger projections have caught up (bounded
 * wait), compares every notification's counts (GET /notifications/{id},
 * 16 in flight) with the ledger's, read in one pass; differing ones are
 * read again until `timeoutMs` has passed. Then counts the dead letters.
 */
export async function judgeSends(options: {
  baseUrl: string;
  apiKey: string;
  ids: readonly string[];
  positions: PositionReader;
  infra: BenchInfra;
  timeoutMs?: number;
  progress: (text: string) => void;
  /** Called once the projections caught up (or the wait for them ran out): the CPU up to here is what the sends cost. */
  onCaughtUp?: () => void;
}): Promise<TransactionalJudgeFigures> {
  const figures: TransactionalJudgeFigures = { deadLetters: null, deadLetterTopics: {}, countsChecked: 0, countsMismatched: null, mismatchSamples: [], ledgerDelivered: null, caughtUpS: null };
  const started = performance.now();
  const until = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    const at = await options.positions.read().catch(() => undefined);
    if (at !== undefined && at.notificationsLag === 0 && at.ledgerLag === 0) {
      figures.caughtUpS = (performance.now() - started) / 1000;
      break;
    }
    options.progress(`judging: projection lag ${at?.notificationsLag ?? '?'} (notifications) / ${at?.ledgerLag ?? '?'} (ledger)`);
    if (Date.now() > until) break;
    await new Promise((done) => setTimeout(done, 1000));
  }
  options.onCaughtUp?.();
  let pending = [...options.ids];
  const api = new Map<string, Record<string, number> | null>();
  let ledger = new Map<string, Record<string, number>>();
  for (;;) {
    let next = 0;
    await Promise.all(
      Array.from({ length: GET_IN_FLIGHT }, async () => {
        while (next < pending.length) {
          const id = pending[next]!;
          next += 1;
          api.set(id, await countsOf(options.baseUrl, options.apiKey, id));
        }
      }),
    );
    ledger = await readLedgerCountsOf(options.infra.mongo.db, new Set(options.ids)).catch(() => ledger);
    pending = options.ids.filter((id) => {
      const counts = api.get(id);
      const theirs = ledger.get(id);
      return counts === null || counts === undefined || theirs === undefined || !countsMatchLedger(counts, theirs);
    });
    options.progress(`judging: ${options.ids.length - pending.length}/${options.ids.length} notifications' counts equal the ledger`);
    if (pending.length === 0 || Date.now() > until) break;
    await new Promise((done) => setTimeout(done, 2000));
  }
  figures.countsChecked = options.ids.length;
  figures.countsMismatched = pending.length;
  figures.mismatchSamples = pending.slice(0, 5).map((id) => ({ id, counts: api.get(id) ?? null, ledger: ledger.get(id) ?? null }));
  figures.ledgerDelivered = [...ledger.values()].reduce((sum, counts) => sum + (counts.delivered ?? 0), 0);
  const dead = await options.positions.deadLetters(options.infra.prefix).catch(() => undefined);
  if (dead !== undefined) {
    figures.deadLetters = dead.total;
    figures.deadLetterTopics = dead.byTopic;
  }
  return figures;
}
