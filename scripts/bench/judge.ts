import type { BenchInfra } from './infra.ts';
import { countsMatchLedger, readLedgerCounts } from './ledger.ts';
import type { PositionReader } from './offsets.ts';

/** What the judge reads once the campaign is over (null = could not be measured). */
export interface JudgeFigures {
  deadLetters: number | null;
  deadLetterTopics: Record<string, number>;
  counts: Record<string, number> | null;
  ledgerCounts: Record<string, number> | null;
  countsMatch: boolean | null;
}

/**
 * Waits (up to `timeoutMs`) until the projections have caught up and the
 * notification's counts (GET /notifications/{id}) equal the ledger, then
 * counts the records in every dead-letter topic of the run.
 */
export async function judgeRun(options: {
  baseUrl: string;
  apiKey: string;
  notificationId: string;
  positions: PositionReader;
  infra: BenchInfra;
  timeoutMs?: number;
  progress: (text: string) => void;
}): Promise<JudgeFigures> {
  const figures: JudgeFigures = { deadLetters: null, deadLetterTopics: {}, counts: null, ledgerCounts: null, countsMatch: null };
  const until = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const at = await options.positions.read().catch(() => undefined);
    const response = await fetch(`${options.baseUrl}/api/v1/notifications/${options.notificationId}`, { headers: { authorization: `Bearer ${options.apiKey}` } }).catch(() => undefined);
    const counts = response?.ok === true ? ((await response.json()) as { data: { counts?: Record<string, number> } }).data.counts : undefined;
    if (counts !== undefined) figures.counts = counts;
    figures.ledgerCounts = await readLedgerCounts(options.infra.mongo.db, options.notificationId).catch(() => null);
    figures.countsMatch = counts === undefined || figures.ledgerCounts === null ? null : countsMatchLedger(counts, figures.ledgerCounts);
    const caughtUp = at !== undefined && at.notificationsLag === 0 && at.ledgerLag === 0;
    if ((caughtUp && figures.countsMatch === true) || Date.now() > until) break;
    options.progress(`judging: projection lag ${at?.notificationsLag ?? '?'}/${at?.ledgerLag ?? '?'}, counts ${JSON.stringify(counts)} vs ledger ${JSON.stringify(figures.ledgerCounts)}`);
    await new Promise((done) => setTimeout(done, 1000));
  }
  const dead = await options.positions.deadLetters(options.infra.prefix).catch(() => undefined);
  if (dead !== undefined) {
    figures.deadLetters = dead.total;
    figures.deadLetterTopics = dead.byTopic;
  }
  return figures;
}
