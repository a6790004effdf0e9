// Raw HTTP/2 load against the fake APNs, run as its own process (as the
// delivery service is) by ceiling.ts: valid APNs requests as fast as a few
// sessions with many concurrent streams allow. Reads its settings from the
// HERALD_BENCH_H2 environment variable (JSON) and prints one JSON line.
import http2, { type ClientHttp2Session } from 'node:http2';

export interface H2LoadSettings {
  url: string;
  ca: string;
  authorization: string;
  topic: string;
  body: string;
  sessions: number;
  streams: number;
  count: number;
  seconds: number;
}

export interface H2LoadResult {
  requests: number;
  ok: number;
  failed: number;
  statuses: Record<string, number>;
  seconds: number;
  rate: number;
  cpuSeconds: number;
  peakRssBytes: number;
}

function connect(settings: H2LoadSettings): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(settings.url, { ca: settings.ca });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

async function run(settings: H2LoadSettings): Promise<H2LoadResult> {
  const sessions = await Promise.all(Array.from({ length: settings.sessions }, () => connect(settings)));
  const body = Buffer.from(settings.body);
  const statuses: Record<string, number> = {};
  let issued = 0;
  let ok = 0;
  let failed = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const endAt = started + settings.seconds * 1000;

  const one = (session: ClientHttp2Session, index: number) =>
    new Promise<void>((resolve) => {
      const request = session.request({
        ':method': 'POST',
        ':path': `/3/device/${index.toString(16).padStart(64, '0')}`,
        authorization: settings.authorization,
        'apns-topic': settings.topic,
        'apns-push-type': 'alert',
        'apns-priority': '10',
        'content-length': String(body.length),
      });
      let status = 0;
      request.on('response', (headers) => (status = Number(headers[':status'])));
      request.on('data', () => undefined);
      request.once('end', () => {
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === 200) ok += 1;
        else failed += 1;
        resolve();
      });
      request.once('error', () => {
        failed += 1;
        resolve();
      });
      request.end(body);
    });

  const lane = async (session: ClientHttp2Session) => {
    while (issued < settings.count && performance.now() < endAt) {
      issued += 1;
      await one(session, issued);
    }
  };
  await Promise.all(sessions.flatMap((session) => Array.from({ length: settings.streams }, () => lane(session))));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  for (const session of sessions) session.close();
  return {
    requests: issued,
    ok,
    failed,
    statuses,
    seconds,
    rate: ok / seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

if (import.meta.main) {
  const settings = JSON.parse(process.env.HERALD_BENCH_H2 ?? '{}') as H2LoadSettings;
  const result = await run(settings);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
