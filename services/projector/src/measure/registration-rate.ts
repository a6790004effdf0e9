/**
 * Measures the devices projection's registration rate: starts its own Kafka
 * + FerretDB (temp dir, free ports), publishes N DeviceRegistered, then runs
 * the devices projection alone until it has applied all of them. Prints wall
 * time, devices/s and the CPU seconds each process used while projecting
 * (this process = the projector; FerretDB; Kafka), so a run on a loaded box
 * can still be compared. Not part of `npm test`.
 *
 *   HERALD_CACHE_DIR=… node services/projector/src/measure/registration-rate.ts [devices=50000]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, deviceIdFor, type HeraldEvent } from '@herald/events';
import { createKafka, ensureTopics, EventProducer } from '@herald/kafka';
import { connectMongo, ModelDocuments, readModelVersion } from '@herald/mongo';
import { createLogger } from '@herald/log';
import { freePort, startLocalInfra } from '@herald/local-infra';
import { devicesProjection } from '@herald/read-models';
import { runProjection } from '@herald/projections';

const devices = Number(process.argv[2] ?? 50_000);
const dataDir = await mkdtemp(join(tmpdir(), 'herald-regrate-'));
const infra = await startLocalInfra({ dataDir, kafkaPort: await freePort(), kafkaControllerPort: await freePort(), mongoPort: await freePort() });
const pidOf = async (file: string) => Number((await readFile(join(dataDir, file), 'utf8')).trim());
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const ferretPid = await pidOf('ferretdb/ferretdb.pid');
const kafkaPid = await pidOf('kafka/kafka.pid');
const logger = createLogger({ name: 'registration-rate', level: 'warn' });
const kafka = createKafka({ brokers: infra.kafkaBrokers, clientId: 'registration-rate', logger });
const producer = new EventProducer(kafka);
const mongo = await connectMongo(infra.mongoUrl.replace(/\/(\?|$)/, '/regrate$1'), 'registration-rate');
try {
  await ensureTopics(kafka, { partitions: 3 });
  await producer.connect();
  const project_id = 'p-rate';
  for (let start = 0; start < devices; start += 5_000) {
    const events: HeraldEvent[] = [];
    for (let index = start; index < Math.min(devices, start + 5_000); index += 1) {
      const token = `token-${String(index).padStart(8, '0')}`;
      events.push(createEvent('DeviceRegistered', { device_id: deviceIdFor(project_id, token), token, platform: index % 2 === 0 ? 'ios' : 'android', metadata: { plan: 'free' } }, { project_id }));
    }
    await producer.publish(events);
  }
  const before = { wall: performance.now(), self: process.cpuUsage(), ferret: cpuSeconds(ferretPid), kafka: cpuSeconds(kafkaPid) };
  let done = 0;
  let chunks = 0;
  let finished!: () => void;
  const caughtUp = new Promise<void>((resolve) => (finished = resolve));
  const consumer = await runProjection({ kafka, producer, db: mongo.db, logger }, devicesProjection, readModelVersion('devices', 1), {
    onChunkDone: ({ count }) => {
      done += count;
      chunks += 1;
      if (done >= devices) finished();
    },
  });
  await caughtUp;
  const wall = (performance.now() - before.wall) / 1000;
  const self = process.cpuUsage(before.self);
  const stored = await (await ModelDocuments.of(mongo.db, readModelVersion('devices', 1).collection)).estimatedCount();
  await consumer.stop();
  const figures = {
    devices,
    stored,
    wall_s: Number(wall.toFixed(2)),
    devices_per_s: Math.round(devices / wall),
    chunks,
    cpu_us_per_device: { ferretdb: Math.round(((cpuSeconds(ferretPid) - before.ferret) * 1e6) / devices), projector: Math.round(((self.user + self.system) / devices)) },
    cpu_s: { projector: Number(((self.user + self.system) / 1e6).toFixed(2)), ferretdb: Number((cpuSeconds(ferretPid) - before.ferret).toFixed(2)), kafka: Number((cpuSeconds(kafkaPid) - before.kafka).toFixed(2)) },
    load_avg_1m: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
  };
  console.log(JSON.stringify(figures));
} finally {
  await producer.disconnect().catch(() => undefined);
  await mongo.close().catch(() => undefined);
  await infra.stop();
  await rm(dataDir, { recursive: true, force: true });
}
