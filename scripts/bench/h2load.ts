// The fake APNs' ceiling as a C HTTP/2 client sees it: `h2load` (Debian
// `nghttp2-client`) sending valid APNs requests. A Node client (node-h2-client.ts)
// spends more CPU per request than the fake does, so it understates the
// fake's ceiling 2–4×; h2load does not. This module finds (or installs)
// h2load, runs it within a request and a time bound, and reads its summary.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { H2LoadResult, H2LoadSettings } from './node-h2-client.ts';
import { cpuSecondsOf, memoryOf } from './proc.ts';

/** What h2load prints after a run (its "finished in", "requests:" and "status codes:" lines). */
export interface H2loadSummary {
  seconds: number;
  /** h2load's own req/s (requests done / seconds). */
  reqPerS: number;
  total: number;
  started: number;
  done: number;
  succeeded: number;
  failed: number;
  errored: number;
  timeout: number;
  statuses: Record<'2xx' | '3xx' | '4xx' | '5xx', number>;
}

const UNIT_S: Record<string, number> = { us: 1e-6, ms: 1e-3, s: 1, m: 60 };

/** Parses h2load's summary (pure); throws naming the line that is missing. */
export function parseH2loadOutput(text: string): H2loadSummary {
  const finished = /^finished in ([0-9.]+)(us|ms|s|m), ([0-9.]+) req\/s/m.exec(text);
  if (finished === null) throw new Error(`h2load printed no "finished in" line:\n${text.slice(-2000)}`);
  const requests = /^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/m.exec(text);
  if (requests === null) throw new Error(`h2load printed no "requests:" line:\n${text.slice(-2000)}`);
  const codes = /^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/m.exec(text);
  if (codes === null) throw new Error(`h2load printed no "status codes:" line:\n${text.slice(-2000)}`);
  const n = (match: RegExpExecArray, index: number) => Number(match[index]);
  return {
    seconds: n(finished, 1) * UNIT_S[finished[2]!]!,
    reqPerS: n(finished, 3),
    total: n(requests, 1),
    started: n(requests, 2),
    done: n(requests, 3),
    succeeded: n(requests, 4),
    failed: n(requests, 5),
    errored: n(requests, 6),
    timeout: n(requests, 7),
    statuses: { '2xx': n(codes, 1), '3xx': n(codes, 2), '4xx': n(codes, 3), '5xx': n(codes, 4) },
  };
}

/** One h2load invocation: bounded by time (`-D`) or by requests (`-n`). */
export type Segment = { seconds: number } | { requests: number };

/** The first segment: one second by time (h2load's smallest `-D`), which measures the rate the rest is planned with. */
export const FIRST_SEGMENT: Segment = { seconds: 1 };

/**
 * The rest of the run after a first segment that did `done` requests in
 * `seconds` (pure): whichever bound comes first at that rate — by time if
 * the remaining seconds at that rate stay within the remaining requests,
 * by requests otherwise. Undefined when a bound is already reached.
 */
export function nextSegment(bounds: { count: number; seconds: number }, first: { done: number; seconds: number }): Segment | undefined {
  const requestsLeft = bounds.count - first.done;
  const secondsLeft = Math.round((bounds.seconds - first.seconds) * 1000) / 1000;
  if (requestsLeft <= 0 || secondsLeft < 0.1) return undefined;
  const rate = first.done / Math.max(first.seconds, 1e-3);
  return rate * secondsLeft <= requestsLeft ? { seconds: secondsLeft } : { requests: requestsLeft };
}

/** Segments added up into the result shape the Node client gives (`ok` = 2xx answers; rate = ok / seconds). */
export function mergeSegments(parts: readonly H2loadSummary[], usage: { cpuSeconds: number; peakRssBytes: number }): H2LoadResult {
  const sum = (pick: (part: H2loadSummary) => number) => parts.reduce((total, part) => total + pick(part), 0);
  const seconds = sum((part) => part.seconds);
  const ok = sum((part) => part.statuses['2xx']);
  const requests = sum((part) => part.done + part.errored + part.timeout);
  const statuses: Record<string, number> = {};
  for (const part of parts) for (const [code, count] of Object.entries(part.statuses)) if (count > 0) statuses[code] = (statuses[code] ?? 0) + count;
  return { requests, ok, failed: requests - ok, statuses, seconds, rate: seconds > 0 ? ok / seconds : 0, cpuSeconds: usage.cpuSeconds, peakRssBytes: usage.peakRssBytes };
}

/** h2load's arguments for one segment (pure): one thread, `sessions` connections × `streams` streams, Herald's APNs headers. */
export function h2loadArgs(settings: Pick<H2LoadSettings, 'url' | 'authorization' | 'topic' | 'sessions' | 'streams'>, bodyFile: string, segment: Segment, token: string): string[] {
  return [
    ...('seconds' in segment ? ['-D', `${Math.round(segment.seconds * 1000)}ms`] : ['-n', String(segment.requests)]),
    '-t', '1',
    '-c', String(settings.sessions),
    '-m', String(settings.streams),
    '-d', bodyFile,
    '-H', `authorization: ${settings.authorization}`,
    '-H', `apns-topic: ${settings.topic}`,
    '-H', 'apns-push-type: alert',
    '-H', 'apns-priority: 10',
    `${settings.url}/3/device/${token}`,
  ];
}

const run = promisify(execFile);

async function works(binary: string): Promise<boolean> {
  return run(binary, ['--version'], { timeout: 10_000 }).then(() => true, () => false);
}

/**
 * The h2load binary, installed with apt-get (Debian `nghttp2-client`) when
 * missing; undefined, after saying why, when it cannot be had (the caller
 * falls back to the Node client and labels the figure so).
 */
export async function ensureH2load(say: (line: string) => void): Promise<string | undefined> {
  const binary = process.env.HERALD_BENCH_H2LOAD ?? 'h2load';
  if (await works(binary)) return binary;
  say(`${binary} not found: installing nghttp2-client with apt-get`);
  const apt = (args: string[]) => run('apt-get', args, { timeout: 600_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const why = await apt(['install', '-y', 'nghttp2-client']).then(
    () => undefined,
    () => apt(['update']).then(() => apt(['install', '-y', 'nghttp2-client'])).then(() => undefined, (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error))),
  );
  if (await works(binary)) return binary;
  say(
    `h2load is not available (${why ?? 'installed, but it does not run'}); install Debian's nghttp2-client to measure the fake's ceiling with a C client. ` +
      'Falling back to the Node HTTP/2 client, which understates the ceiling 2–4×: the figure is labelled ceiling_client "node".',
  );
  return undefined;
}

/** Runs one h2load segment, sampling its CPU and peak RSS from /proc while it runs. */
async function runSegment(binary: string, args: string[], timeoutMs: number): Promise<{ summary: H2loadSummary; cpuSeconds: number; peakRssBytes: number }> {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let cpuSeconds = 0;
  let peakRssBytes = 0;
  const sample = () => {
    if (child.pid === undefined) return;
    cpuSeconds = cpuSecondsOf(child.pid) ?? cpuSeconds;
    peakRssBytes = Math.max(peakRssBytes, memoryOf(child.pid).peak ?? 0);
  };
  const sampler = setInterval(sample, 100);
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (exitCode) => resolve(exitCode));
    });
    if (code !== 0) throw new Error(`h2load exited with ${String(code ?? 'a signal')}:\n${output.slice(-2000)}`);
  } finally {
    clearInterval(sampler);
    clearTimeout(killer);
  }
  return { summary: parseH2loadOutput(output), cpuSeconds, peakRssBytes };
}

/**
 * The ceiling by h2load: a one-second segment first, then the rest bounded
 * by whichever of `count` requests and `seconds` comes first at the rate the
 * first second showed. Every request goes to one device token (the fake
 * checks a token's presence, not which one).
 */
export async function runH2load(binary: string, settings: H2LoadSettings): Promise<H2LoadResult> {
  const dir = await mkdtemp(join(tmpdir(), 'herald-h2load-'));
  const bodyFile = join(dir, 'body.json');
  await writeFile(bodyFile, settings.body);
  const token = '1'.padStart(64, '0');
  const bounds = { count: settings.count, seconds: settings.seconds };
  try {
    const segments = [];
    const first = await runSegment(binary, h2loadArgs(settings, bodyFile, FIRST_SEGMENT, token), (bounds.seconds + 30) * 1000);
    segments.push(first);
    const next = nextSegment(bounds, first.summary);
    if (next !== undefined) segments.push(await runSegment(binary, h2loadArgs(settings, bodyFile, next, token), (bounds.seconds + 30) * 1000));
    return mergeSegments(
      segments.map((segment) => segment.summary),
      { cpuSeconds: segments.reduce((sum, segment) => sum + segment.cpuSeconds, 0), peakRssBytes: Math.max(...segments.map((segment) => segment.peakRssBytes)) },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
