// `npm run bench:ceiling -- [seconds]`: the raw HTTP/2 ceiling against the
// fake APNs alone (and against a bare HTTP/2 server for scale), without Kafka,
// the store or the services. The quick check that the fakes stay lean.
import { createFakeTls, createTestApnsKey, startFakeApns } from '@herald/fake-providers';
import { measureCeiling, startBareH2 } from './ceiling.ts';
import { BUNDLE_ID } from './system.ts';

const seconds = Number(process.argv[2] ?? 5);
const tls = await createFakeTls();
const key = createTestApnsKey();
const apns = await startFakeApns({ tls, record: false, keys: [{ keyId: key.keyId, teamId: key.teamId, publicKeyPem: key.publicKeyPem }] });
const settings = { ca: tls.ca, key, topic: BUNDLE_ID, projectId: 'bench', count: 10_000_000, seconds };
try {
  // The server runs in this process: its CPU per request is the fake's own cost, whatever else loads the box.
  const serverUs = (cpu: NodeJS.CpuUsage, requests: number) => ((cpu.user + cpu.system) / Math.max(1, requests)).toFixed(1);
  let cpu = process.cpuUsage();
  const fake = await measureCeiling({ ...settings, url: apns.url });
  let used = process.cpuUsage(cpu);
  process.stdout.write(
    `fake APNs: ${Math.round(fake.rate)} req/s (${fake.ok} ok, ${fake.failed} failed; server ${serverUs(used, fake.requests)} µs CPU/request, client ${((fake.cpuSeconds * 1e6) / Math.max(1, fake.requests)).toFixed(1)})\n`,
  );
  const bare = await startBareH2(tls);
  try {
    cpu = process.cpuUsage();
    const raw = await measureCeiling({ ...settings, url: bare.url });
    used = process.cpuUsage(cpu);
    process.stdout.write(`bare HTTP/2: ${Math.round(raw.rate)} req/s (server ${serverUs(used, raw.requests)} µs CPU/request)\n`);
  } finally {
    await bare.close();
  }
} finally {
  await apns.close();
}
