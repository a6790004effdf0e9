import type { CampaignFigures } from './send.ts';

/** What the bench's pause and resume did, in seconds since the campaign's request. */
export interface SteerFigures {
  pausedS?: number;
  resumedS?: number;
  /** Distinct deliveries when the pause was asked and when the resume was. */
  atPause?: number;
  atResume?: number;
  /** How long after the pause the last push before the resume left (ms): "pause stops sends within 1 s". */
  lastBeforePauseMs?: number;
  errors?: string[];
}

async function patch(baseUrl: string, apiKey: string, id: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${baseUrl}/api/v1/notifications/${id}`, { method: 'PATCH', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 202) throw new Error(`PATCH ${JSON.stringify(body)} answered ${response.status}: ${await response.text()}`);
}

/**
 * `--pause-at P --resume-after S`: returns the callback the campaign calls
 * with each new distinct delivery; at P % it PATCHes the campaign paused,
 * S seconds later resumed, and records when (the pace judge checks that
 * nothing left in between).
 */
export function steerWhenReached(options: {
  baseUrl: string;
  apiKey: string;
  devices: number;
  pauseAt?: number | undefined;
  resumeAfterS?: number | undefined;
  figures: SteerFigures;
  campaign: CampaignFigures;
  say: (line: string) => void;
}): (distinct: number) => void {
  const { figures, campaign } = options;
  const since = () => (performance.now() - (campaign.startedAt ?? 0)) / 1000;
  let asked = false;
  const fail = (error: unknown) => {
    (figures.errors ??= []).push(error instanceof Error ? error.message : String(error));
    options.say(`steer: ${String(error)}`);
  };
  return (distinct) => {
    if (options.pauseAt === undefined || asked || distinct < (options.devices * options.pauseAt) / 100 || campaign.notificationId === undefined) return;
    asked = true;
    const id = campaign.notificationId;
    figures.pausedS = since();
    figures.atPause = distinct;
    options.say(`pausing at ${distinct} delivered (t=${figures.pausedS.toFixed(2)} s)`);
    patch(options.baseUrl, options.apiKey, id, { state: 'paused' }).then(() => {
      setTimeout(() => {
        const perSecond = campaign.perSecond ?? [];
        let last = perSecond.length - 1;
        while (last >= 0 && perSecond[last] === 0) last -= 1;
        figures.lastBeforePauseMs = Math.max(0, Math.round((last + 1 - figures.pausedS!) * 1000));
        figures.atResume = campaign.distinct;
        figures.resumedS = since();
        options.say(`resuming at ${campaign.distinct} delivered (t=${figures.resumedS.toFixed(2)} s)`);
        patch(options.baseUrl, options.apiKey, id, { state: 'sending' }).catch(fail);
      }, (options.resumeAfterS ?? 10) * 1000);
    }, fail);
  };
}
