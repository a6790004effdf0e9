import { cpuSecondsOf, machineCpuSeconds } from './proc.ts';

/** One read endpoint under load: `path()` gives each request's path (a random page, a random id...). */
export interface Endpoint {
  name: string;
  path: () => string;
  apiKey?: string;
  /** Also measured with one client: the latency of a lookup when it does not queue behind others. */
  alone?: boolean;
}

export interface LoadResult {
  name: string;
  requests: number;
  errors: number;
  /** The first error's status and body, to say what failed. */
  firstError?: string;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  perSecond: number;
  /** CPU per request of the store's and the API's processes, and of everything else on the machine. */
  storeCpuUs: number | null;
  apiCpuUs: number | null;
  otherCpuUs: number | null;
}

export interface Watched {
  store: () => readonly number[];
  api: () => readonly number[];
}

const cpuOf = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + (cpuSecondsOf(pid) ?? 0), 0);

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `requests` requests with `clients` clients each keeping one in flight; latencies are per request, client side. */
export async function measure(
  baseUrl: string,
  endpoint: Endpoint,
  options: { clients: number; requests: number; watched: Watched; warmup?: number },
): Promise<LoadResult> {
  const headers = endpoint.apiKey === undefined ? {} : { authorization: `Bearer ${endpoint.apiKey}` };
  const once = async () => {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${endpoint.path()}`, { headers });
    const body = await response.text();
    return { ms: performance.now() - started, ok: response.ok, error: response.ok ? undefined : `${response.status} ${body.slice(0, 200)}` };
  };
  for (let n = 0; n < (options.warmup ?? options.clients * 2); n += 1) await once();

  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let issued = 0;
  const store0 = cpuOf(options.watched.store());
  const api0 = cpuOf(options.watched.api());
  const machine0 = machineCpuSeconds();
  const self0 = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.clients }, async () => {
      while (issued < options.requests) {
        issued += 1;
        const result = await once();
        latencies.push(result.ms);
        if (!result.ok) {
          errors += 1;
          firstError ??= result.error;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const store = cpuOf(options.watched.store()) - store0;
  const api = cpuOf(options.watched.api()) - api0;
  const machine1 = machineCpuSeconds();
  const self = process.cpuUsage(self0);
  const busy = machine0 !== undefined && machine1 !== undefined ? machine1.busy - machine0.busy : undefined;
  const bench = (self.user + self.system) / 1e6;
  latencies.sort((a, b) => a - b);
  const per = (cpuS: number) => (1e6 * cpuS) / latencies.length;
  return {
    name: endpoint.name,
    requests: latencies.length,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.at(-1) ?? 0,
    perSecond: latencies.length / seconds,
    storeCpuUs: options.watched.store().length === 0 ? null : per(store),
    apiCpuUs: options.watched.api().length === 0 ? null : per(api),
    otherCpuUs: busy === undefined ? null : per(Math.max(0, busy - store - api - bench)),
  };
}

/**
 * Anonymous registrations (`POST /api/v1/devices`, no key) with `inFlight`
 * requests in flight: registrations per second that the API answered 201.
 */
export async function registerThroughApi(
  baseUrl: string,
  bodies: Iterator<Record<string, unknown>>,
  options: { inFlight: number; progress: (done: number) => void; watched: Watched },
): Promise<{ registered: number; errors: number; firstError?: string; seconds: number; perSecond: number; p50Ms: number; p99Ms: number; storeCpuUs: number; apiCpuUs: number }> {
  let registered = 0;
  let errors = 0;
  let firstError: string | undefined;
  const latencies: number[] = [];
  const store0 = cpuOf(options.watched.store());
  const api0 = cpuOf(options.watched.api());
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.inFlight }, async () => {
      for (let next = bodies.next(); next.done !== true; next = bodies.next()) {
        const sent = performance.now();
        const response = await fetch(`${baseUrl}/api/v1/devices`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(next.value) });
        const text = await response.text();
        latencies.push(performance.now() - sent);
        if (response.status === 201 || response.status === 200) registered += 1;
        else {
          errors += 1;
          firstError ??= `${response.status} ${text.slice(0, 200)}`;
        }
        if ((registered + errors) % 1_000 === 0) options.progress(registered + errors);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const per = (cpuS: number) => (1e6 * cpuS) / Math.max(1, registered + errors);
  latencies.sort((a, b) => a - b);
  return {
    registered,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
    seconds,
    perSecond: registered / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    storeCpuUs: per(cpuOf(options.watched.store()) - store0),
    apiCpuUs: per(cpuOf(options.watched.api()) - api0),
  };
}
