import { crc32c } from '@node-rs/crc32';

/**
 * Faster versions of four kafkajs 2.2.4 internals on every record's path,
 * byte for byte and value for value the same (kafkajs-codec.unit.test.ts
 * compares them with kafkajs' own on random input):
 *
 * - `Encoder`: kafkajs zero-fills a new 512-byte buffer for every encoder,
 *   and it makes one per record and one per record header (Herald writes
 *   three headers), and zero-fills again each time one grows (a record of
 *   ~700 bytes, every batch); each varint allocates an array and a Buffer,
 *   each varlong (a record's timestamp delta) several 64-bit Long objects.
 *   This one takes its buffers from Node's pool unfilled, new and grown
 *   (only written bytes are ever read: `buffer` is cut at `offset`, growth
 *   copies up to it), writes varints in place and 32-bit varlongs as
 *   varints (the same bytes).
 * - the record batch's CRC-32C: kafkajs computes it in a JavaScript table
 *   loop, about 2 µs per record of ~650 bytes; `@node-rs/crc32`'s native
 *   one takes a tenth of that.
 *   With both, encoding such a record takes 5.6 µs of CPU instead of 12.8
 *   (`npm run bench:record-codec`).
 * - `groupMessagesPerPartition`: kafkajs copies a partition's message list
 *   for every message it adds to it (quadratic in a batch's size).
 * - the record decoder: kafkajs parses the batch's first offset and first
 *   timestamp from strings into BigInt-backed Longs for every record; here
 *   they are numbers while exact (below 2^53), Longs past that. One
 *   difference, on purpose: a header named like a member of Object.prototype
 *   (`__proto__`, `constructor`) is its value; kafkajs made it an array of
 *   the inherited member and the value, which a dead letter could not copy.
 *
 * They replace kafkajs' modules in Node's module cache before kafkajs loads
 * (kafkajs.ts), since its modules keep what they required.
 */

/** kafkajs' Encoder, as much of it as this file touches. */
export interface EncoderInstance {
  buf: Buffer;
  offset: number;
  ensureAvailable(length: number): void;
  writeUVarInt(value: number): EncoderInstance;
  writeVarLong: (this: EncoderInstance, value: unknown) => EncoderInstance;
  readonly buffer: Buffer;
}
export interface EncoderClass {
  new (initialSize?: number): EncoderInstance;
  prototype: EncoderInstance;
  nextPowerOfTwo(value: number): number;
  sizeOfVarInt(value: number): number;
  sizeOfVarLong(value: unknown): number;
}

/** Marks kafkajs' Encoder once replaced, so a second install knows. */
const INSTALLED = Symbol.for('herald.kafkajs.fasterCodec');

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;

/** A varlong that fits 32 bits: its zig-zag value is that of the varint, so its bytes are too. */
function isInt32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
}

/** kafkajs' Encoder with a pooled, unfilled first buffer and allocation-free varints; its other methods and statics copied over. */
export function fasterEncoder(Original: EncoderClass): EncoderClass {
  const originalWriteVarLong = Original.prototype.writeVarLong;
  const originalSizeOfVarLong = Original.sizeOfVarLong.bind(Original);
  class Encoder {
    declare buf: Buffer;
    declare offset: number;
    constructor(initialSize = 511) {
      this.buf = Buffer.allocUnsafe(Original.nextPowerOfTwo(initialSize));
      this.offset = 0;
    }
  }
  for (const name of Object.getOwnPropertyNames(Original.prototype)) {
    if (name !== 'constructor') Object.defineProperty(Encoder.prototype, name, Object.getOwnPropertyDescriptor(Original.prototype, name)!);
  }
  for (const name of Object.getOwnPropertyNames(Original)) {
    if (name !== 'length' && name !== 'name' && name !== 'prototype') Object.defineProperty(Encoder, name, Object.getOwnPropertyDescriptor(Original, name)!);
  }
  (Encoder.prototype as EncoderInstance).ensureAvailable = function ensureAvailable(this: EncoderInstance, length: number) {
    if (this.offset + length <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Original.nextPowerOfTwo(this.offset + length));
    this.buf.copy(grown, 0, 0, this.offset);
    this.buf = grown;
  };
  (Encoder.prototype as EncoderInstance).writeUVarInt = function writeUVarInt(this: EncoderInstance, value: number) {
    this.ensureAvailable(5);
    const buf = this.buf;
    let offset = this.offset;
    // kafkajs' loop, writing where it pushed to an array.
    while ((value & 0xffffff80) !== 0) {
      buf[offset++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buf[offset++] = value & 0x7f;
    this.offset = offset;
    return this;
  };
  (Encoder.prototype as EncoderInstance).writeVarLong = function writeVarLong(this: EncoderInstance, value: unknown) {
    if (isInt32(value)) return this.writeUVarInt(((value << 1) ^ (value >> 31)) >>> 0);
    return originalWriteVarLong.call(this, value);
  };
  const FastEncoder = Encoder as unknown as EncoderClass;
  Object.defineProperty(FastEncoder, 'sizeOfVarLong', {
    value: (value: unknown) => (isInt32(value) ? Original.sizeOfVarInt(value) : originalSizeOfVarLong(value)),
    writable: true,
    configurable: true,
  });
  return FastEncoder;
}

type Partitioner = (args: { topic: string; partitionMetadata: unknown[]; message: unknown }) => number;

/** kafkajs' groupMessagesPerPartition in one pass: each message appended to its partition's list. */
export function groupMessagesPerPartition({ topic, partitionMetadata, messages, partitioner }: { topic: string; partitionMetadata: unknown[]; messages: unknown[]; partitioner: Partitioner }): Record<number, unknown[]> {
  if (partitionMetadata.length === 0) return {};
  const grouped: Record<number, unknown[]> = {};
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message });
    (grouped[partition] ??= []).push(message);
  }
  return grouped;
}

/** kafkajs' Decoder, as much of it as the record decoder reads. */
export interface DecoderInstance {
  buffer: Buffer;
  offset: number;
  readInt8(): number;
  readVarInt(): number;
  readVarLong(): LongLike;
  readVarIntBytes(): Buffer | null;
  readVarIntArray<T>(reader: (decoder: DecoderInstance) => T): T[];
}
interface LongLike {
  add(other: unknown): LongLike;
  toString(): string;
}
interface LongClass {
  fromValue(value: unknown): LongLike;
}
export interface BatchContext {
  firstOffset?: string;
  firstTimestamp?: string;
  magicByte?: number;
  isControlBatch?: boolean;
  timestampType?: number;
  maxTimestamp?: string;
}
type Header = { key: string; value: Buffer | null };
type HeaderValue = Buffer | null | Array<Buffer | null>;

/** 7 varint bytes carry 49 bits: any longer varlong may not fit a double exactly. */
const EXACT_VARLONG_BYTES = 7;

/** A varlong as a number when it has at most 7 bytes (exact); undefined, with the decoder untouched, when longer. */
export function readShortVarLong(decoder: DecoderInstance): number | undefined {
  const { buffer } = decoder;
  let offset = decoder.offset;
  let unsigned = 0;
  let scale = 1;
  for (let count = 0; count < EXACT_VARLONG_BYTES; count++) {
    const byte = buffer[offset++]!;
    unsigned += (byte & 0x7f) * scale;
    if (byte < 0x80) {
      decoder.offset = offset;
      // Zig-zag: even values are non-negative.
      return unsigned % 2 === 0 ? unsigned / 2 : -(unsigned + 1) / 2;
    }
    scale *= 128;
  }
  return undefined;
}

/** `base + delta` as kafkajs writes it (a decimal string), in numbers while exact. */
function addToDecimal(Long: LongClass, base: string | undefined, delta: number | LongLike): string {
  if (typeof delta === 'number' && base !== undefined) {
    const sum = Number(base) + delta;
    if (Number.isSafeInteger(sum) && Number.isSafeInteger(Number(base))) return String(sum);
  }
  return Long.fromValue(base).add(delta).toString();
}

/** The headers object kafkajs builds: one value per key, an array when a key repeats (own keys only: see the file's comment). */
export function headersObject(headers: readonly Header[]): Record<string, HeaderValue> {
  const object: Record<string, HeaderValue> = {};
  for (const { key, value } of headers) {
    const current = Object.hasOwn(object, key) ? object[key] : undefined;
    const next = current === undefined ? value : Array.isArray(current) ? current.concat([value]) : [current, value];
    // An own property even for '__proto__', as kafkajs' object spread makes it.
    Object.defineProperty(object, key, { value: next, writable: true, enumerable: true, configurable: true });
  }
  return object;
}

/** kafkajs' record decoder (v0) with number arithmetic for offsets and timestamps. */
export function fasterRecordDecoder(deps: { Long: LongClass; HeaderDecoder: (decoder: DecoderInstance) => Header; logAppendTime: number }) {
  const { Long, HeaderDecoder, logAppendTime } = deps;
  return (decoder: DecoderInstance, batchContext: BatchContext = {}) => {
    const { firstOffset, firstTimestamp, magicByte, isControlBatch = false, timestampType, maxTimestamp } = batchContext;
    const attributes = decoder.readInt8();
    const timestampDelta = readShortVarLong(decoder) ?? decoder.readVarLong();
    const timestamp = timestampType === logAppendTime && maxTimestamp ? maxTimestamp : addToDecimal(Long, firstTimestamp, timestampDelta);
    const offset = addToDecimal(Long, firstOffset, decoder.readVarInt());
    const key = decoder.readVarIntBytes();
    const value = decoder.readVarIntBytes();
    const headers = headersObject(decoder.readVarIntArray(HeaderDecoder));
    return { magicByte, attributes, timestamp, offset, key, value, headers, isControlRecord: isControlBatch, batchContext };
  };
}

/** Node's module cache, as `createRequire` gives it. */
export interface ModuleRequire {
  (id: string): unknown;
  resolve(id: string): string;
  cache: Record<string, { exports: unknown } | undefined>;
}

const KAFKAJS_MODULES = {
  index: 'kafkajs',
  encoder: 'kafkajs/src/protocol/encoder.js',
  groupMessages: 'kafkajs/src/producer/groupMessagesPerPartition.js',
  recordDecoder: 'kafkajs/src/protocol/recordBatch/record/v0/decoder.js',
  crc32c: 'kafkajs/src/protocol/recordBatch/crc32C/index.js',
  long: 'kafkajs/src/utils/long.js',
  headerDecoder: 'kafkajs/src/protocol/recordBatch/header/v0/decoder.js',
  timestampTypes: 'kafkajs/src/protocol/timestampTypes.js',
} as const;

/**
 * Puts the faster codec in place of kafkajs' own modules, if kafkajs has
 * not been loaded in this process yet (its modules would keep the old
 * ones): true when installed, or already installed by an earlier call.
 */
export function installKafkajsCodec(require: ModuleRequire): boolean {
  const path = (id: keyof typeof KAFKAJS_MODULES) => require.resolve(KAFKAJS_MODULES[id]);
  const replace = (id: keyof typeof KAFKAJS_MODULES, make: (original: unknown) => unknown) => {
    const original = require(path(id));
    const cached = require.cache[path(id)];
    if (cached === undefined) throw new Error(`kafkajs module ${KAFKAJS_MODULES[id]} is not in the module cache: check libs/kafka/src/kafkajs-codec.ts against this kafkajs version`);
    cached.exports = make(original);
  };
  const encoder = require.cache[path('encoder')];
  if (encoder !== undefined) return (encoder.exports as { [INSTALLED]?: true })[INSTALLED] === true;
  if (require.cache[path('index')] !== undefined) return false;
  replace('encoder', (original) => Object.assign(fasterEncoder(original as EncoderClass), { [INSTALLED]: true }));
  replace('groupMessages', () => groupMessagesPerPartition);
  // kafkajs' module gives the checksum as an unsigned 32-bit number, as crc32c does.
  replace('crc32c', () => (buffer: Buffer) => crc32c(buffer));
  const timestampTypes = require(path('timestampTypes')) as { LOG_APPEND_TIME: number };
  replace('recordDecoder', () =>
    fasterRecordDecoder({ Long: require(path('long')) as LongClass, HeaderDecoder: require(path('headerDecoder')) as (decoder: DecoderInstance) => Header, logAppendTime: timestampTypes.LOG_APPEND_TIME }),
  );
  return true;
}

