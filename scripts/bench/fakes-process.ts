// The fake APNs and FCM in a process of their own, so a run can say what the
// fakes cost apart from the bench (CPU, memory). As a child (`fork`) it starts
// both fakes and streams, every 20 ms, the device indexes they accepted and their
// counters to the parent; the parent side below looks like the two fakes to
// the rest of the bench.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { indexOfToken } from './register.ts';
import { startFakeApns, startFakeFcm, type ApnsKeyRegistration, type FakeStats, type FakeTls, type FcmAccountRegistration } from '@herald/fake-providers';

type Provider = 'apns' | 'fcm';
type ToParent =
  | { type: 'ready'; urls: Record<Provider, string> }
  | { type: 'deliveries'; indexes: Record<Provider, number[]>; at?: Record<Provider, number[]>; stats: Record<Provider, FakeStats> }
  | { type: 'ack'; id: number };
type ToChild =
  | { type: 'registerKey'; id: number; key: ApnsKeyRegistration }
  | { type: 'registerAccount'; id: number; account: FcmAccountRegistration }
  | { type: 'reset'; id: number };

/** What the bench uses of a fake. */
export interface RemoteFake {
  readonly url: string;
  readonly stats: Readonly<FakeStats>;
  reset(): Promise<void>;
  /**
   * Called with the device index each accepted token encodes (register.ts), not the token: cheaper to pass between processes.
   * With `times`, `at` is when the fake accepted it, on this process's `performance.now()` clock (both processes
   * read the same wall clock: `performance.timeOrigin` + `now()`); without, listeners hear of it up to 20 ms later.
   */
  onDelivery(listener: (delivery: Delivery) => void): () => void;
}

export interface Delivery {
  index: number;
  at?: number;
}

const emptyStats = (): FakeStats => ({ requests: 0, inFlight: 0, maxInFlight: 0, delivered: 0, rejected: 0, byReason: {} });

export async function startFakesProcess(tls: FakeTls, latencyMs: number, options: { times?: boolean } = {}): Promise<{
  pid: number | undefined;
  apns: RemoteFake & { registerKey(key: ApnsKeyRegistration): Promise<void> };
  fcm: RemoteFake & { registerAccount(account: FcmAccountRegistration): Promise<void> };
  close(): Promise<void>;
}> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, HERALD_BENCH_FAKES: JSON.stringify({ tls, latencyMs, times: options.times === true }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stats: Record<Provider, FakeStats> = { apns: emptyStats(), fcm: emptyStats() };
  const listeners: Record<Provider, Set<(delivery: Delivery) => void>> = { apns: new Set(), fcm: new Set() };
  const acks = new Map<number, () => void>();
  let nextId = 0;
  const urls = await new Promise<Record<Provider, string>>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fakes process exited (${String(code)}) before it was ready`)));
    child.on('message', (raw) => {
      const message = raw as ToParent;
      if (message.type === 'ready') resolve(message.urls);
      else if (message.type === 'ack') acks.get(message.id)?.();
      else {
        stats.apns = message.stats.apns;
        stats.fcm = message.stats.fcm;
        for (const provider of ['apns', 'fcm'] as const) {
          const at = message.at?.[provider];
          message.indexes[provider].forEach((index, n) => {
            const delivery: Delivery = at === undefined ? { index } : { index, at: at[n]! - performance.timeOrigin };
            for (const listener of listeners[provider]) listener(delivery);
          });
        }
      }
    });
  });
  const call = (message: ToChild) =>
    new Promise<void>((resolve) => {
      acks.set(message.id, () => {
        acks.delete(message.id);
        resolve();
      });
      child.send(message);
    });
  const remote = (provider: Provider): RemoteFake => ({
    url: urls[provider],
    get stats() {
      return stats[provider];
    },
    reset: async () => {
      await call({ type: 'reset', id: (nextId += 1) });
      stats.apns = emptyStats();
      stats.fcm = emptyStats();
    },
    onDelivery(listener) {
      listeners[provider].add(listener);
      return () => void listeners[provider].delete(listener);
    },
  });
  return {
    pid: child.pid,
    apns: Object.assign(remote('apns'), { registerKey: (key: ApnsKeyRegistration) => call({ type: 'registerKey', id: (nextId += 1), key }) }),
    fcm: Object.assign(remote('fcm'), { registerAccount: (account: FcmAccountRegistration) => call({ type: 'registerAccount', id: (nextId += 1), account }) }),
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function serve(): Promise<void> {
  const settings = JSON.parse(process.env.HERALD_BENCH_FAKES ?? '{}') as { tls: FakeTls; latencyMs: number; times: boolean };
  const send = (message: ToParent) => process.send?.(message);
  // Counts only: a million deliveries are not kept in memory.
  const apns = await startFakeApns({ tls: settings.tls, record: false, latencyMs: settings.latencyMs });
  const fcm = await startFakeFcm({ tls: settings.tls, record: false, latencyMs: settings.latencyMs });
  let pending: Record<Provider, number[]> = { apns: [], fcm: [] };
  let times: Record<Provider, number[]> = { apns: [], fcm: [] };
  const accepted = (provider: Provider, token: string) => {
    pending[provider].push(indexOfToken(token));
    if (settings.times) times[provider].push(performance.timeOrigin + performance.now());
  };
  apns.onDelivery(({ token }) => accepted('apns', token));
  fcm.onDelivery(({ token }) => accepted('fcm', token));
  // Nothing is sent while nothing changed: an idle fake would otherwise wake itself and the bench 50 times a second.
  let lastSent = '';
  const flush = setInterval(() => {
    const counts = [apns.stats, fcm.stats].map((stats) => `${stats.requests}/${stats.inFlight}/${stats.delivered}/${stats.rejected}`).join(' ');
    if (counts === lastSent && pending.apns.length === 0 && pending.fcm.length === 0) return;
    lastSent = counts;
    send({ type: 'deliveries', indexes: pending, ...(settings.times ? { at: times } : {}), stats: { apns: apns.stats, fcm: fcm.stats } });
    pending = { apns: [], fcm: [] };
    times = { apns: [], fcm: [] };
  }, 20);
  process.on('message', (raw) => {
    const message = raw as ToChild;
    if (message.type === 'registerKey') apns.registerKey(message.key);
    else if (message.type === 'registerAccount') fcm.registerAccount(message.account);
    else {
      apns.reset();
      fcm.reset();
      pending = { apns: [], fcm: [] };
      times = { apns: [], fcm: [] };
    }
    send({ type: 'ack', id: message.id });
  });
  const stop = () => {
    clearInterval(flush);
    void Promise.all([apns.close(), fcm.close()]).finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  send({ type: 'ready', urls: { apns: apns.url, fcm: fcm.url } });
}

if (import.meta.main) await serve();
