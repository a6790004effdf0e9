// `npm run bench:record-codec -- [--json]`: CPU per record to encode a
// transactional produce request (64 records shaped like Herald's: a uuid key,
// a JSON event of ~650 bytes, three headers) and to decode its record batch,
// with kafkajs' own codec and with Herald's (libs/kafka/src/kafkajs-codec.ts).
// Each runs in its own process (the codec replaces kafkajs' modules before
// kafkajs loads), three times, alternating; the medians are printed. CPU
// time of the whole process: V8's compiler threads count too, as they do
// for a service.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { emitJson } from './runs.ts';

const RECORDS = 64;
const ROUNDS = 3_000;
const RUNS = 3;

type Codec = 'kafkajs' | 'herald';
interface Figures {
  encode_us_per_record: number;
  decode_us_per_record: number;
}

async function measureHere(codec: Codec): Promise<Figures> {
  const require = createRequire(new URL('../../libs/kafka/src/kafkajs.ts', import.meta.url));
  // Both load @herald/kafka (the same modules, the same work for the JIT); kafkajs loaded before it keeps its own codec.
  if (codec === 'kafkajs') require('kafkajs');
  const { fasterCodecInstalled } = await import('@herald/kafka');
  if (fasterCodecInstalled !== (codec === 'herald')) throw new Error(`expected the ${codec} codec`);
  const kafkajs = (id: string) => require(`kafkajs/src/${id}`) as unknown;
  const Produce = kafkajs('protocol/requests/produce/v3/request.js') as (args: object) => { encode(): Promise<{ buffer: Buffer }> };
  const { RecordBatch } = kafkajs('protocol/recordBatch/v0/index.js') as { RecordBatch: (args: object) => Promise<{ buffer: Buffer }> };
  const Record = kafkajs('protocol/recordBatch/record/v0/index.js') as (args: object) => unknown;
  const decodeBatch = kafkajs('protocol/recordBatch/v0/decoder.js') as (decoder: unknown) => Promise<{ records: unknown[] }>;
  const Decoder = kafkajs('protocol/decoder.js') as new (buffer: Buffer) => unknown;
  const project = `prj_${'x'.repeat(20)}`;
  const messages = Array.from({ length: RECORDS }, (_, i) => {
    const id = randomUUID();
    const event = { type: 'DeliveryReported', version: 1, stream_id: id, project_id: project, occurred_at: new Date().toISOString(), data: { batch_id: id, outcomes: [{ device_id: randomUUID(), status: 'sent', apns_id: randomUUID() }], token: 'a'.repeat(64), attempt: i } };
    return { key: id, value: JSON.stringify(event).padEnd(650, ' '), headers: { type: event.type, version: '1', project_id: project } };
  });
  const now = Date.now();
  const encode = async () => (await Produce({ acks: -1, timeout: 30_000, transactionalId: 'herald-delivery', topicData: [{ topic: 'herald.delivery-events', partitions: [{ partition: 0, firstSequence: 0, messages }] }] }).encode()).buffer;
  const batch = (await RecordBatch({ records: messages.map((message, i) => Record({ ...message, offsetDelta: i, timestampDelta: 0 })), firstTimestamp: now, maxTimestamp: now, transactional: true, lastOffsetDelta: RECORDS - 1 })).buffer;
  const decode = () => decodeBatch(new Decoder(batch));
  const timed = async (work: () => Promise<unknown>) => {
    for (let i = 0; i < 300; i++) await work();
    const start = process.cpuUsage();
    for (let i = 0; i < ROUNDS; i++) await work();
    const used = process.cpuUsage(start);
    return Math.round(((used.user + used.system) / ROUNDS / RECORDS) * 100) / 100;
  };
  return { encode_us_per_record: await timed(encode), decode_us_per_record: await timed(decode) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

if (process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify(await measureHere(process.argv[3] as Codec)));
} else {
  const run = promisify(execFile);
  const runs: Record<Codec, Figures[]> = { kafkajs: [], herald: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const codec of ['kafkajs', 'herald'] as const) {
      const { stdout } = await run(process.execPath, [new URL(import.meta.url).pathname, '--child', codec]);
      runs[codec].push(JSON.parse(stdout) as Figures);
    }
  }
  const summary = (codec: Codec) => ({ encode_us_per_record: median(runs[codec].map((run) => run.encode_us_per_record)), decode_us_per_record: median(runs[codec].map((run) => run.decode_us_per_record)) });
  const figures = { records: RECORDS, rounds: ROUNDS, runs: RUNS, kafkajs: summary('kafkajs'), herald: summary('herald') };
  if (process.argv.includes('--json')) emitJson('record-codec', figures);
  else {
    for (const codec of ['kafkajs', 'herald'] as const) {
      process.stdout.write(`${codec.padEnd(8)} encode ${figures[codec].encode_us_per_record} µs/record, decode ${figures[codec].decode_us_per_record} µs/record (runs: ${runs[codec].map((run) => run.encode_us_per_record).join(', ')})\n`);
    }
  }
}
