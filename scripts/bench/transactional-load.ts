// The transactional benchmark's load: one POST /api/v1/notifications per
// device, each targeting that device's token, closed loop (C in flight) or
// open loop (R started per second); and the deliveries the fakes accept,
// matched to their send by the device index the token encodes.
import { Agent, request as httpRequest } from 'node:http';
import type { Deadline } from './deadline.ts';
import type { Delivery, RemoteFake } from './fakes-process.ts';
import { platformOf, tokenFor } from './register.ts';
import { deviceOfSend, iosCountOf, sendOfDevice, type SendTimes } from './transactional-stats.ts';

/** Open loop: requests in flight at most (past it, starts wait and the lag shows in the latencies). */
export const OPEN_LOOP_MAX_IN_FLIGHT = 1024;

export interface LoadFigures extends SendTimes {
  /** Notification id of each send (undefined when the POST failed). */
  ids: Array<string | undefined>;
  postErrors: number;
  firstPostError?: string;
  distinct: number;
  duplicates: number;
  /** Deliveries to devices this run did not target. */
  strays: number;
  /** Open loop: the latest a POST started after it was due (ms). */
  maxStartLagMs: number;
  maxInFlight: number;
}

export function emptyLoadFigures(sends: number): LoadFigures {
  return {
    start: new Float64Array(sends).fill(NaN),
    answered: new Float64Array(sends).fill(NaN),
    delivered: new Float64Array(sends).fill(NaN),
    ids: new Array<string | undefined>(sends),
    postErrors: 0,
    distinct: 0,
    duplicates: 0,
    strays: 0,
    maxStartLagMs: 0,
    maxInFlight: 0,
  };
}

/** The token send `i` targets (half iOS, half Android, alternating). */
export function tokenOfSend(send: number, sends: number): string {
  const device = deviceOfSend(send, sends);
  return tokenFor(device, platformOf(device, iosCountOf(sends)));
}

/** Listens to both fakes: the first accepted delivery of each device sets its send's `delivered` time; resolves `all` when every send has one. */
export function trackDeliveries(fakes: { apns: RemoteFake; fcm: RemoteFake }, figures: LoadFigures, onDistinct?: (distinct: number) => void) {
  const sends = figures.start.length;
  let resolveAll!: () => void;
  const all = new Promise<void>((resolve) => (resolveAll = resolve));
  let lastAt = performance.now();
  const listener = ({ index, at }: Delivery) => {
    lastAt = performance.now();
    if (!(index >= 0 && index < sends)) {
      figures.strays += 1;
      return;
    }
    const send = sendOfDevice(index, sends);
    if (!Number.isNaN(figures.delivered[send]!)) {
      figures.duplicates += 1;
      return;
    }
    figures.delivered[send] = at ?? performance.now();
    figures.distinct += 1;
    onDistinct?.(figures.distinct);
    if (figures.distinct === sends) resolveAll();
  };
  const off = [fakes.apns.onDelivery(listener), fakes.fcm.onDelivery(listener)];
  return { all, lastDeliveryAt: () => lastAt, stop: () => off.forEach((unsubscribe) => unsubscribe()) };
}

/**
 * POSTs a JSON body over a kept-alive connection and returns status and
 * text. node:http rather than fetch: measured on this box, fetch costs the
 * bench about 260 µs of CPU per request and node:http about 90, CPU the
 * two shared cores would otherwise give Herald.
 */
function postJson(agent: Agent, url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface PostTarget {
  agent: Agent;
  url: URL;
  headers: Record<string, string>;
}

/** One POST: its start, its answer, the notification id. Never throws: a failed request counts as a POST error. */
async function post(target: PostTarget, figures: LoadFigures, send: number, startedAt: number): Promise<void> {
  figures.start[send] = startedAt;
  const token = tokenOfSend(send, figures.start.length);
  try {
    const { status, text } = await postJson(target.agent, target.url, target.headers, JSON.stringify({ notification: { title: 'Bench', body: 'Your one-time code is 123456', targets: [{ token }] } }));
    figures.answered[send] = performance.now();
    if (status !== 201) {
      figures.postErrors += 1;
      figures.firstPostError ??= `POST answered ${status}: ${text.slice(0, 300)}`;
      return;
    }
    figures.ids[send] = (JSON.parse(text) as { data: { id: string } }).data.id;
  } catch (error) {
    figures.answered[send] = performance.now();
    figures.postErrors += 1;
    figures.firstPostError ??= `POST failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Sends every notification: closed loop (`concurrency` workers, each
 * starting the next POST when its last was answered) or open loop (`rate`
 * per second on a fixed schedule; a POST's start is when it was due, so
 * waiting for a free slot counts as latency).
 */
export async function sendAll(options: { baseUrl: string; apiKey: string; concurrency: number; rate: number | undefined; deadline: Deadline; figures: LoadFigures; progress: (text: string) => void }): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.rate === undefined ? options.concurrency : OPEN_LOOP_MAX_IN_FLIGHT });
  const target: PostTarget = { agent, url: new URL('/api/v1/notifications', options.baseUrl), headers: { authorization: `Bearer ${options.apiKey}` } };
  try {
    await sendWith(target, options);
  } finally {
    agent.destroy();
  }
}

async function sendWith(target: PostTarget, options: { concurrency: number; rate: number | undefined; deadline: Deadline; figures: LoadFigures; progress: (text: string) => void }): Promise<void> {
  const { figures } = options;
  const sends = figures.start.length;
  let next = 0;
  let inFlight = 0;
  const report = () => options.progress(`${next}/${sends} POSTs started, ${figures.distinct} delivered`);
  if (options.rate === undefined) {
    const worker = async () => {
      while (next < sends) {
        options.deadline.check('sending', `${next}/${sends} POSTs started`);
        const send = next;
        next += 1;
        inFlight += 1;
        figures.maxInFlight = Math.max(figures.maxInFlight, inFlight);
        await post(target, figures, send, performance.now());
        inFlight -= 1;
        if (send % 500 === 0) report();
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, sends) }, worker));
    return;
  }
  const intervalMs = 1000 / options.rate;
  const t0 = performance.now();
  const running = new Set<Promise<void>>();
  while (next < sends) {
    options.deadline.check('sending', `${next}/${sends} POSTs started`);
    const due = t0 + next * intervalMs;
    const now = performance.now();
    if (due > now) {
      await new Promise((done) => setTimeout(done, Math.max(0, due - now)));
      continue;
    }
    if (running.size >= OPEN_LOOP_MAX_IN_FLIGHT) {
      await Promise.race(running);
      continue;
    }
    figures.maxStartLagMs = Math.max(figures.maxStartLagMs, now - due);
    const send = next;
    next += 1;
    const request = post(target, figures, send, due).finally(() => running.delete(request));
    running.add(request);
    figures.maxInFlight = Math.max(figures.maxInFlight, running.size);
    if (send % 500 === 0) report();
  }
  await Promise.all(running);
}
