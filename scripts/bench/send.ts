import cliProgress from 'cli-progress';
import type { RemoteFake } from './fakes-process.ts';
import type { Deadline } from './deadline.ts';
import type { PositionReader, Positions } from './offsets.ts';
import { TOPIC_NAME } from './register.ts';

/** Seconds since the request was sent (t = 0 just before the POST). */
export interface CampaignFigures {
  notificationId?: string;
  /** The POST itself (201 once Kafka acknowledged). */
  requestS?: number;
  firstDeliveryS?: number;
  /** The N-th distinct device accepted by a fake. */
  lastDeliveryS?: number;
  /** All delivery batches queued by fan-out (from Kafka end offsets, 1 s resolution). */
  fanoutDoneS?: number;
  /** The read model said `dispatching` (NotificationDispatched projected), 1 s resolution. */
  dispatchingS?: number;
  completedS?: number;
  distinct: number;
  duplicates: number;
  rejected: number;
  counts?: Record<string, number>;
  positionsAtLast?: Positions;
  maxInFlight: { apns: number; fcm: number; webpush?: number; hms?: number };
  expectedBatches: number;
  /** Distinct targeted devices delivered in second k after the request (the pace judge's input). */
  perSecond?: number[];
  /** performance.now() just before the POST (t = 0). */
  startedAt?: number;
  /** `delivered`: pushes the fakes accepted (duplicates included); `distinct` / `duplicates`: of the targeted devices, so far. */
  timeline: Array<{ t: number; delivered: number; distinct: number; duplicates: number; batchesQueued: number; batchesDone: number; notificationsLag: number; ledgerLag: number; status: string }>;
}

interface Notification {
  status: string;
  counts?: Record<string, number>;
}

async function getNotification(baseUrl: string, apiKey: string, id: string): Promise<Notification | undefined> {
  const response = await fetch(`${baseUrl}/api/v1/notifications/${id}`, { headers: { authorization: `Bearer ${apiKey}` } });
  if (!response.ok) return undefined;
  return ((await response.json()) as { data: Notification }).data;
}

/**
 * Sends one notification to the topic that holds every device, through the
 * HTTP API, and times it at the fakes: first and last (N-th distinct)
 * accepted delivery, then the read model's `completed`. `figures` is filled
 * as the campaign goes, so a timeout still reports what was reached.
 */
export async function runCampaign(options: {
  baseUrl: string;
  apiKey: string;
  apns: RemoteFake;
  fcm: RemoteFake;
  /** The fake push service, when the run has web devices (--web-share). */
  webpush?: RemoteFake | undefined;
  /** The fake HMS Push Kit, when the run has huawei devices (--huawei-share). */
  hms?: RemoteFake | undefined;
  devices: number;
  positions: PositionReader;
  deadline: Deadline;
  figures: CampaignFigures;
  progress: (text: string) => void;
  /** Called at the first delivery and once the last device got its push (phase boundaries for CPU accounting). */
  onFirstDelivery?: () => void;
  onAllDelivered?: () => void;
  /** Every distinct targeted device delivered so far (fault points). */
  onDistinct?: (distinct: number) => void;
  /** A delivery to a device outside the campaign (index ≥ devices: the small send). */
  onOtherDevice?: (index: number) => void;
  /** The campaign's rate_per_minute (a paced campaign). */
  ratePerMinute?: number | undefined;
  /** The notification's content instead of the literal title and body (a template or A/B send: content-plan.ts). */
  content?: Record<string, unknown> | undefined;
}): Promise<void> {
  const { baseUrl, apiKey, apns, fcm, devices, deadline, figures } = options;
  const fakes = [apns, fcm, ...(options.webpush === undefined ? [] : [options.webpush]), ...(options.hms === undefined ? [] : [options.hms])];
  const seen = new Uint8Array(devices);
  let t0 = 0;
  let resolveAll!: () => void;
  const allDelivered = new Promise<void>((resolve) => (resolveAll = resolve));
  const onDelivery = ({ index }: { index: number }) => {
    if (figures.firstDeliveryS === undefined) {
      figures.firstDeliveryS = (performance.now() - t0) / 1000;
      options.onFirstDelivery?.();
    }
    if (!(index >= 0 && index < devices)) {
      options.onOtherDevice?.(index);
      return;
    }
    if (seen[index] === 1) {
      figures.duplicates += 1;
      return;
    }
    seen[index] = 1;
    figures.distinct += 1;
    const second = Math.floor((performance.now() - t0) / 1000);
    const perSecond = (figures.perSecond ??= []);
    while (perSecond.length <= second) perSecond.push(0);
    perSecond[second]! += 1;
    options.onDistinct?.(figures.distinct);
    if (figures.distinct === devices) {
      figures.lastDeliveryS = (performance.now() - t0) / 1000;
      resolveAll();
    }
  };
  // One reset clears every fake (they share a process); counters before it (the ceiling's) are dropped.
  await apns.reset();
  const unsubscribe = fakes.map((fake) => fake.onDelivery(onDelivery));

  const bar = new cliProgress.SingleBar(
    { format: '  delivered  {bar} {value}/{total} | {rate}/s | {status}', noTTYOutput: true, notTTYSchedule: 5_000, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  let status = 'queued';
  let sampling = true;
  const sampler = async () => {
    while (sampling) {
      await new Promise((done) => setTimeout(done, 1000));
      if (!sampling || figures.notificationId === undefined) continue;
      const t = (performance.now() - t0) / 1000;
      const [positions, notification] = await Promise.all([options.positions.read().catch(() => undefined), getNotification(baseUrl, apiKey, figures.notificationId).catch(() => undefined)]);
      if (notification !== undefined) {
        status = notification.status;
        if (status !== 'queued') figures.dispatchingS ??= t;
        if (notification.counts !== undefined) figures.counts = notification.counts;
      }
      if (positions !== undefined && positions.batchesQueued >= figures.expectedBatches) figures.fanoutDoneS ??= t;
      const delivered = fakes.reduce((sum, fake) => sum + fake.stats.delivered, 0);
      figures.timeline.push({ t, delivered, distinct: figures.distinct, duplicates: figures.duplicates, status, ...(positions ?? { batchesQueued: -1, batchesDone: -1, notificationsLag: -1, ledgerLag: -1 }) });
      options.progress(`${figures.distinct}/${devices} delivered at t=${t.toFixed(0)} s, ${status}, batches done ${positions?.batchesDone ?? '?'}/${positions?.batchesQueued ?? '?'} of ${figures.expectedBatches}`);
      bar.update(figures.distinct, { rate: Math.round(figures.distinct / Math.max(t, 0.001)), status: `${status}, batches ${positions?.batchesDone ?? '?'}/${positions?.batchesQueued ?? '?'}` });
    }
  };

  bar.start(devices, 0, { rate: 0, status });
  const sampling$ = sampler();
  try {
    t0 = performance.now();
    figures.startedAt = t0;
    const response = await fetch(`${baseUrl}/api/v1/notifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ notification: { ...(options.content ?? { title: 'Bench', body: 'Hello from the campaign benchmark' }), targets: [TOPIC_NAME], ...(options.ratePerMinute === undefined ? {} : { rate_per_minute: options.ratePerMinute }) } }),
    });
    const text = await response.text();
    figures.requestS = (performance.now() - t0) / 1000;
    if (response.status !== 201) throw new Error(`POST /api/v1/notifications answered ${response.status}: ${text}`);
    figures.notificationId = (JSON.parse(text) as { data: { id: string } }).data.id;

    // Until the N-th distinct delivery, or the read model says sent with fewer (rejections), or the deadline.
    for (;;) {
      const timeout = Math.min(1000, deadline.remainingMs());
      await Promise.race([allDelivered, new Promise((done) => setTimeout(done, timeout))]);
      if (figures.lastDeliveryS !== undefined) break;
      if (status === 'sent') break;
      deadline.check('delivering', `${figures.distinct}/${devices} delivered`);
    }
    options.onAllDelivered?.();
    figures.positionsAtLast = await options.positions.read().catch(() => undefined);
    // Then the read model's view: sent once every targeted device has an outcome.
    for (;;) {
      const notification = await getNotification(baseUrl, apiKey, figures.notificationId).catch(() => undefined);
      if (notification?.counts !== undefined) figures.counts = notification.counts;
      if (notification?.status === 'sent') {
        figures.completedS = (performance.now() - t0) / 1000;
        break;
      }
      deadline.check('waiting for sent', `status ${notification?.status ?? '?'}, counts ${JSON.stringify(notification?.counts ?? {})}`);
      await new Promise((done) => setTimeout(done, 250));
    }
  } finally {
    sampling = false;
    await sampling$;
    bar.update(figures.distinct, { status });
    bar.stop();
    for (const off of unsubscribe) off();
    figures.rejected = fakes.reduce((sum, fake) => sum + fake.stats.rejected, 0);
    figures.maxInFlight = {
      apns: apns.stats.maxInFlight,
      fcm: fcm.stats.maxInFlight,
      ...(options.webpush === undefined ? {} : { webpush: options.webpush.stats.maxInFlight }),
      ...(options.hms === undefined ? {} : { hms: options.hms.stats.maxInFlight }),
    };
  }
}
