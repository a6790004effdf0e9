import { execFile, spawn } from 'node:child_process';
import { text as readAll } from 'node:stream/consumers';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '@herald/testing/seeded-random';
import { headersObject, readShortVarLong, type DecoderInstance } from './kafkajs-codec.ts';

const run = promisify(execFile);
const SHIM = new URL('./kafkajs.ts', import.meta.url).href;

/** Random produce batches: keys and values as strings, Buffers or null, headers that repeat, timestamps near and far apart. */
function randomBatches(random: () => number, count: number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const bytes = (length: number) => Buffer.from(Array.from({ length }, () => Math.floor(random() * 256))).toString('base64');
  const text = (length: number) => Array.from({ length }, () => pick(['a', 'é', '€', '😀', '{', '"', '7'])).join('');
  const data = () => pick(['string', 'buffer', 'null', 'long'] as const);
  const value = (kind: ReturnType<typeof data>) =>
    kind === 'null' ? null : kind === 'buffer' ? { base64: bytes(Math.floor(random() * 40)) } : kind === 'long' ? text(100 + Math.floor(random() * 20_000)) : text(Math.floor(random() * 60));
  const base = 1_700_000_000_000 + Math.floor(random() * 1e9);
  return Array.from({ length: count }, () => ({
    // Offsets past 2^53 and timestamps more than 2^31 ms apart take kafkajs' 64-bit path.
    firstOffset: pick(['0', '41', String(2 ** 40 + 7), '9007199254740993', '1152921504606846976']),
    messages: Array.from({ length: 1 + Math.floor(random() * 40) }, () => ({
      key: value(data()),
      value: value(data()),
      partition: Math.floor(random() * 4),
      timestamp: String(base + pick([0, 1, 999, -5_000, 2 ** 31 + 3, -(2 ** 33), 2 ** 45])),
      headers: Object.fromEntries(
        Array.from({ length: Math.floor(random() * 5) }, () => [
          // Not a name Object.prototype has: there the two differ on purpose (the last test).
          pick(['type', 'version', 'project_id', 'dlq.source.topic', 'proto', 'é']),
          random() < 0.3 ? [text(3), { base64: bytes(2) }] : random() < 0.5 ? { base64: bytes(5) } : text(Math.floor(random() * 30)),
        ]),
      ),
    })),
  }));
}

/**
 * Encodes the batches as produce requests and record batches, then decodes
 * the record batches, in a new process: with Herald's codec (`herald`,
 * which loads kafkajs through kafkajs.ts) or with kafkajs' own (`plain`).
 */
const CHILD = `
import { createRequire } from 'node:module';
const [mode, shim] = process.argv.slice(1);
const input = await new Promise((done) => { let s = ''; process.stdin.setEncoding('utf8').on('data', (c) => (s += c)).on('end', () => done(s)); });
const installed = mode === 'herald' ? (await import(shim)).fasterCodecInstalled : false;
const require = createRequire(new URL(shim));
const kafkajs = (id) => require('kafkajs/src/' + id);
const Produce = kafkajs('protocol/requests/produce/v3/request.js');
const group = kafkajs('producer/groupMessagesPerPartition.js');
const { RecordBatch } = kafkajs('protocol/recordBatch/v0/index.js');
const Record = kafkajs('protocol/recordBatch/record/v0/index.js');
const decodeBatch = kafkajs('protocol/recordBatch/v0/decoder.js');
const Decoder = kafkajs('protocol/decoder.js');
const revive = (value) => value !== null && typeof value === 'object' && 'base64' in value ? Buffer.from(value.base64, 'base64') : Array.isArray(value) ? value.map(revive) : value;
const out = [];
for (const batch of JSON.parse(input)) {
  const messages = batch.messages.map((m) => ({ ...m, key: revive(m.key), value: revive(m.value), headers: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, revive(v)])) }));
  const grouped = group({ topic: 't', partitionMetadata: [{}, {}, {}, {}], messages, partitioner: ({ message }) => message.partition });
  const partitions = Object.entries(grouped).map(([partition, list]) => ({ partition: Number(partition), firstSequence: 3, messages: list }));
  const request = await Produce({ acks: -1, timeout: 30000, transactionalId: 'tx', producerId: 7, producerEpoch: 2, topicData: [{ topic: 't', partitions }] }).encode();
  const first = Number(messages[0].timestamp);
  const records = messages.map((m, i) => Record({ ...m, offsetDelta: i, timestampDelta: Number(m.timestamp) - first }));
  const encodedBatch = (await RecordBatch({ firstOffset: batch.firstOffset, firstTimestamp: first, maxTimestamp: first, records, transactional: true, lastOffsetDelta: records.length - 1 })).buffer;
  const decoded = await decodeBatch(new Decoder(encodedBatch));
  out.push({ request: request.buffer.toString('hex'), batch: encodedBatch.toString('hex'), grouped: Object.entries(grouped).map(([p, list]) => [p, list.length]), decoded: decoded.records.map((r) => ({ ...r, batchContext: undefined, key: r.key?.toString('hex') ?? null, value: r.value?.toString('hex') ?? null, headers: Object.entries(r.headers).map(([k, v]) => [k, [v].flat().map((b) => b?.toString('hex') ?? null), Array.isArray(v), Object.getPrototypeOf(r.headers) === Object.prototype]) })) });
}
process.stdout.write(JSON.stringify({ installed, out }));
`;

async function encodeIn(mode: 'herald' | 'plain', batches: unknown): Promise<{ installed: boolean; out: unknown[] }> {
  // The batches go in on stdin: too long for an argument.
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, mode, SHIM], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(batches));
  const [stdout, code] = await Promise.all([readAll(child.stdout), new Promise((done) => child.once('exit', done))]);
  expect(code).toBe(0);
  return JSON.parse(stdout) as { installed: boolean; out: unknown[] };
}

describe("Herald's kafkajs codec", () => {
  it("encodes produce requests and record batches byte for byte as kafkajs does, and decodes them to the same records", async () => {
    const batches = randomBatches(seededRandom(2026), 60);
    const [herald, plain] = await Promise.all([encodeIn('herald', batches), encodeIn('plain', batches)]);
    expect(herald.installed).toBe(true);
    expect(plain.installed).toBe(false);
    expect(herald.out).toHaveLength(60);
    expect(herald.out).toEqual(plain.out);
  });

  it('is installed only when it loads kafkajs itself (modules already loaded keep what they required)', async () => {
    const probe = (first: string) =>
      run(process.execPath, ['--input-type=module', '-e', `${first}; const { fasterCodecInstalled } = await import(${JSON.stringify(SHIM)}); process.stdout.write(String(fasterCodecInstalled));`]);
    expect((await probe('')).stdout).toBe('true');
    expect((await probe(`import { createRequire } from 'node:module'; createRequire(new URL(${JSON.stringify(SHIM)}))('kafkajs')`)).stdout).toBe('false');
  });

  it('reads varlongs of up to 7 bytes as numbers, and leaves longer ones to kafkajs', () => {
    const Decoder = createRequire(import.meta.url)('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => DecoderInstance;
    const random = seededRandom(7);
    const varlong = (value: bigint) => {
      let zigzag = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
      const out: number[] = [];
      while (zigzag >= 0x80n) {
        out.push(Number(zigzag & 0x7fn) | 0x80);
        zigzag >>= 7n;
      }
      out.push(Number(zigzag));
      return Buffer.from([...out, 0x2a]);
    };
    const values = [0n, 1n, -1n, 63n, -64n, 2n ** 31n - 1n, -(2n ** 31n), 2n ** 47n, -(2n ** 48n), 2n ** 48n, 2n ** 62n, -(2n ** 63n), 2n ** 63n - 1n];
    for (let i = 0; i < 2_000; i++) values.push(BigInt(Math.floor((random() - 0.5) * 2 ** Math.floor(random() * 64))));
    for (const value of values) {
      const bytes = varlong(value);
      const fast = new Decoder(bytes);
      const read = readShortVarLong(fast);
      if (bytes.length - 1 <= 7) {
        expect(read).toBe(Number(value));
        expect(fast.offset).toBe(bytes.length - 1);
      } else {
        expect(read).toBeUndefined();
        expect(fast.offset).toBe(0);
        expect(fast.readVarLong().toString()).toBe(String(value));
      }
    }
  });

  it("builds kafkajs' headers object: repeated keys as arrays; a key Object.prototype has is its value (kafkajs made it [the inherited member, value])", () => {
    const a = Buffer.from('a');
    const b = Buffer.from('b');
    const headers = headersObject([
      { key: 'type', value: a },
      { key: '__proto__', value: b },
      { key: 'type', value: b },
      { key: 'type', value: null },
      { key: 'one', value: a },
      { key: 'constructor', value: a },
    ]);
    expect(Object.keys(headers)).toEqual(['type', '__proto__', 'one', 'constructor']);
    expect(headers.constructor).toBe(a);
    expect(headers.type).toEqual([a, b, null]);
    expect(Object.getOwnPropertyDescriptor(headers, '__proto__')?.value).toBe(b);
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
    expect(headers.one).toBe(a);
  });
});
