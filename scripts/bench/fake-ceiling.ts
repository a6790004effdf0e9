// `npm run bench:ceiling -- [seconds]`: the raw HTTP/2 ceiling against the
// fake APNs alone (and against a bare HTTP/2 server for scale), without Kafka,
// the store or the services. The quick check that the fakes stay lean.
// The client is h2load (installed if missing; the Node client otherwise,
// labelled so); the Node client is measured too, to show what it understates.
import { createFakeTls, createTestApnsKey, startFakeApns } from '@herald/fake-providers';
import { measureCeiling, startBareH2, type CeilingResult } from './ceiling.ts';
import { ensureH2load } from './h2load.ts';
import { BUNDLE_ID } from './system.ts';
import { emitJson } from './runs.ts';

const seconds = Number(process.argv[2] ?? 5);
if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 120) {
  process.stderr.write(`usage: npm run bench:ceiling -- [seconds, 0 < s ≤ 120; default 5]\n`);
  process.exit(2);
}
const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const h2load = await ensureH2load(say);
const tls = await createFakeTls();
const key = createTestApnsKey();
const apns = await startFakeApns({ tls, record: false, keys: [{ keyId: key.keyId, teamId: key.teamId, publicKeyPem: key.publicKeyPem }] });
const settings = { ca: tls.ca, key, topic: BUNDLE_ID, projectId: 'bench', count: 10_000_000, seconds };
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const figures: Record<string, unknown> = { ceiling_client: h2load === undefined ? 'node' : 'h2load', seconds };
try {
  // The server runs in this process: its CPU per request is the fake's own cost, whatever else loads the box.
  const measure = async (label: string, url: string, client: string | undefined): Promise<{ result: CeilingResult; serverUs: number }> => {
    const cpu = process.cpuUsage();
    const result = await measureCeiling({ ...settings, url, h2load: client });
    const used = process.cpuUsage(cpu);
    const serverUs = (used.user + used.system) / Math.max(1, result.requests);
    const clientUs = (result.cpuSeconds * 1e6) / Math.max(1, result.requests);
    process.stdout.write(
      `${label} (${result.client} client): ${Math.round(result.rate)} req/s (${result.ok} ok, ${result.failed} failed in ${result.seconds.toFixed(2)} s; server ${serverUs.toFixed(1)} µs CPU/request, client ${clientUs.toFixed(1)})\n`,
    );
    return { result, serverUs };
  };
  const fake = await measure('fake APNs', apns.url, h2load);
  Object.assign(figures, { fake_per_s: Math.round(fake.result.rate), fake_failed: fake.result.failed, fake_server_us_per_request: round(fake.serverUs) });
  if (h2load !== undefined) {
    const node = await measure('fake APNs', apns.url, undefined);
    Object.assign(figures, { node_client_per_s: Math.round(node.result.rate), node_understates: round(fake.result.rate / Math.max(1, node.result.rate), 2) });
  }
  const bare = await startBareH2(tls);
  try {
    const raw = await measure('bare HTTP/2', bare.url, h2load);
    Object.assign(figures, { bare_per_s: Math.round(raw.result.rate), bare_server_us_per_request: round(raw.serverUs) });
  } finally {
    await bare.close();
  }
} finally {
  await apns.close();
}
emitJson('ceiling', figures);
