// The fake APNs, FCM, Web Push service and HMS Push Kit in a process of their own, so a run
// can say what the fakes cost apart from the bench (CPU, memory; the push
// service decrypts every message, as a browser would). As a child (`fork`) it
// starts the fakes and streams, every 20 ms, the device indexes they accepted and their
// counters to the parent; the parent side below looks like the two fakes to
// the rest of the bench.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { indexOfSubscriptionId, indexOfToken, type BenchSubscription } from './register.ts';
import { indexOfHuaweiToken } from './shares.ts';
import {
  startFakeApns,
  startFakeFcm,
  startFakeHms,
  startFakeWebPush,
  type ApnsKeyRegistration,
  type FakeStats,
  type FakeTls,
  type FcmAccountRegistration,
  type HmsAppRegistration,
} from '@herald/fake-providers';

type Provider = 'apns' | 'fcm' | 'webpush' | 'hms';
const PROVIDERS = ['apns', 'fcm', 'webpush', 'hms'] as const;
type ToParent =
  | { type: 'ready'; urls: Record<Provider, string>; hmsTokenUrl: string }
  | { type: 'deliveries'; indexes: Record<Provider, number[]>; at?: Record<Provider, number[]>; stats: Record<Provider, FakeStats> }
  | { type: 'ack'; id: number; subscriptions?: BenchSubscription[] };
type ToChild =
  | { type: 'registerKey'; id: number; key: ApnsKeyRegistration }
  | { type: 'registerAccount'; id: number; account: FcmAccountRegistration }
  | { type: 'registerApp'; id: number; app: HmsAppRegistration }
  | { type: 'subscribe'; id: number; from: number; count: number; applicationServerKey: string }
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
  /** Subscriptions for devices `from`…`from + count - 1`, made with `applicationServerKey` (the push service checks every message is signed with it). */
  webpush: RemoteFake & { subscribe(from: number, count: number, applicationServerKey: string): Promise<BenchSubscription[]> };
  /** Push Kit: one delivery per token of a multicast (up to 1,000 a request); `tokenUrl` is its OAuth endpoint. */
  hms: RemoteFake & { tokenUrl: string; registerApp(app: HmsAppRegistration): Promise<void> };
  close(): Promise<void>;
}> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, HERALD_BENCH_FAKES: JSON.stringify({ tls, latencyMs, times: options.times === true }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stats: Record<Provider, FakeStats> = { apns: emptyStats(), fcm: emptyStats(), webpush: emptyStats(), hms: emptyStats() };
  const listeners: Record<Provider, Set<(delivery: Delivery) => void>> = { apns: new Set(), fcm: new Set(), webpush: new Set(), hms: new Set() };
  const acks = new Map<number, (message: Extract<ToParent, { type: 'ack' }>) => void>();
  let nextId = 0;
  const { urls, hmsTokenUrl } = await new Promise<{ urls: Record<Provider, string>; hmsTokenUrl: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fakes process exited (${String(code)}) before it was ready`)));
    child.on('message', (raw) => {
      const message = raw as ToParent;
      if (message.type === 'ready') resolve(message);
      else if (message.type === 'ack') acks.get(message.id)?.(message);
      else {
        for (const provider of PROVIDERS) stats[provider] = message.stats[provider];
        for (const provider of PROVIDERS) {
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
    new Promise<Extract<ToParent, { type: 'ack' }>>((resolve) => {
      acks.set(message.id, (ack) => {
        acks.delete(message.id);
        resolve(ack);
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
      for (const name of PROVIDERS) stats[name] = emptyStats();
    },
    onDelivery(listener) {
      listeners[provider].add(listener);
      return () => void listeners[provider].delete(listener);
    },
  });
  return {
    pid: child.pid,
    apns: Object.assign(remote('apns'), { registerKey: async (key: ApnsKeyRegistration) => void (await call({ type: 'registerKey', id: (nextId += 1), key })) }),
    fcm: Object.assign(remote('fcm'), { registerAccount: async (account: FcmAccountRegistration) => void (await call({ type: 'registerAccount', id: (nextId += 1), account })) }),
    webpush: Object.assign(remote('webpush'), {
      subscribe: async (from: number, count: number, applicationServerKey: string) => (await call({ type: 'subscribe', id: (nextId += 1), from, count, applicationServerKey })).subscriptions ?? [],
    }),
    hms: Object.assign(remote('hms'), { tokenUrl: hmsTokenUrl, registerApp: async (app: HmsAppRegistration) => void (await call({ type: 'registerApp', id: (nextId += 1), app })) }),
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
  const webpush = await startFakeWebPush({ tls: settings.tls, record: false, latencyMs: settings.latencyMs });
  const hms = await startFakeHms({ tls: settings.tls, record: false, latencyMs: settings.latencyMs });
  const empty = (): Record<Provider, number[]> => ({ apns: [], fcm: [], webpush: [], hms: [] });
  let pending = empty();
  let times = empty();
  const accepted = (provider: Provider, index: number) => {
    pending[provider].push(index);
    if (settings.times) times[provider].push(performance.timeOrigin + performance.now());
  };
  apns.onDelivery(({ token }) => accepted('apns', indexOfToken(token)));
  fcm.onDelivery(({ token }) => accepted('fcm', indexOfToken(token)));
  webpush.onDelivery(({ id }) => accepted('webpush', indexOfSubscriptionId(id)));
  // A multicast: every token it was accepted for is one device's delivery.
  hms.onDelivery(({ tokens }) => {
    for (const token of tokens) accepted('hms', indexOfHuaweiToken(token));
  });
  // Nothing is sent while nothing changed: an idle fake would otherwise wake itself and the bench 50 times a second.
  let lastSent = '';
  const flush = setInterval(() => {
    const counts = [apns.stats, fcm.stats, webpush.stats, hms.stats].map((stats) => `${stats.requests}/${stats.inFlight}/${stats.delivered}/${stats.rejected}`).join(' ');
    if (counts === lastSent && PROVIDERS.every((provider) => pending[provider].length === 0)) return;
    lastSent = counts;
    send({ type: 'deliveries', indexes: pending, ...(settings.times ? { at: times } : {}), stats: { apns: apns.stats, fcm: fcm.stats, webpush: webpush.stats, hms: hms.stats } });
    pending = empty();
    times = empty();
  }, 20);
  process.on('message', (raw) => {
    const message = raw as ToChild;
    if (message.type === 'subscribe') {
      const subscriptions = Array.from({ length: message.count }, (_, n) => {
        const made = webpush.subscribe({ label: `w${message.from + n}-`, applicationServerKey: message.applicationServerKey });
        return { endpoint: made.endpoint, p256dh: made.keys.p256dh, auth: made.keys.auth };
      });
      send({ type: 'ack', id: message.id, subscriptions });
      return;
    }
    if (message.type === 'registerKey') apns.registerKey(message.key);
    else if (message.type === 'registerAccount') fcm.registerAccount(message.account);
    else if (message.type === 'registerApp') hms.registerApp(message.app);
    else {
      apns.reset();
      fcm.reset();
      webpush.reset();
      hms.reset();
      pending = empty();
      times = empty();
    }
    send({ type: 'ack', id: message.id });
  });
  const stop = () => {
    clearInterval(flush);
    void Promise.all([apns.close(), fcm.close(), webpush.close(), hms.close()]).finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  send({ type: 'ready', urls: { apns: apns.url, fcm: fcm.url, webpush: webpush.url, hms: hms.url }, hmsTokenUrl: hms.tokenUrl });
}

if (import.meta.main) await serve();
