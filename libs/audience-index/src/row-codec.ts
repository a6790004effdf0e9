import { Packr } from 'msgpackr';
import { INDEXED_FIELDS, type IndexedDevice } from './index-rows.ts';

/**
 * How the index stores a row (pure, exact both ways): a MessagePack array in
 * the order of `INDEXED_FIELDS`, with the values that dominate a row's size in a
 * shorter form where one exists — a canonical uuid (the device's id, its
 * project's, each topic's) as its 16 bytes, a lowercase hex token (APNs) as
 * its bytes. Anything else is kept as it is, so `decodeRow(encodeRow(row))`
 * equals the row for every row, and an absent field stays absent
 * (row-codec.unit.test.ts). Rows are a quarter smaller for about 1 µs more
 * per row read (the registration time stays a string: as milliseconds it
 * saved 16 bytes a row and cost 0.4 µs a read).
 */
type Field = (typeof INDEXED_FIELDS)[number];

const LOWER_HEX = /^(?:[0-9a-f]{2})+$/;

/** A lowercase hex digit's value, else -1. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** The 16 bytes of a canonical (lowercase, hyphenated) uuid; undefined for any other string. */
function uuidBytes(value: string): Buffer | undefined {
  if (value.length !== 36) return undefined;
  const bytes = Buffer.allocUnsafe(16);
  let written = 0;
  for (let at = 0; at < 36; ) {
    if (at === 8 || at === 13 || at === 18 || at === 23) {
      if (value.charCodeAt(at) !== 45) return undefined;
      at += 1;
      continue;
    }
    const high = hexDigit(value.charCodeAt(at));
    const low = hexDigit(value.charCodeAt(at + 1));
    if (high < 0 || low < 0) return undefined;
    bytes[written++] = high * 16 + low;
    at += 2;
  }
  return bytes;
}

function packUuid(value: unknown): unknown {
  return (typeof value === 'string' && uuidBytes(value)) || value;
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** Where each of a uuid's 16 bytes writes its two digits in the 36-character text (the hyphens stay put). */
const DIGITS_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
/**
 * The text a uuid is written into before it becomes a string: one flat
 * 36-character string per uuid, where appending its digits one by one left
 * about 20 intermediate strings per uuid (3 uuids a row, every row a
 * campaign reads: 1.7 KB of garbage per push). Safe to share: it is filled
 * and read within one synchronous call.
 */
const UUID_TEXT = Buffer.alloc(36, '-', 'latin1');

function unpackUuid(value: unknown): unknown {
  if (!(value instanceof Uint8Array)) return value;
  for (let at = 0; at < 16; at += 1) {
    const byte = value[at]!;
    const to = DIGITS_AT[at]!;
    UUID_TEXT[to] = HEX_DIGITS[byte >> 4]!;
    UUID_TEXT[to + 1] = HEX_DIGITS[byte & 15]!;
  }
  return UUID_TEXT.toString('latin1', 0, 36);
}

function packHex(value: unknown): unknown {
  return typeof value === 'string' && LOWER_HEX.test(value) ? Buffer.from(value, 'hex') : value;
}

function unpackHex(value: unknown): unknown {
  return value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex') : value;
}

function packList(value: unknown): unknown {
  return Array.isArray(value) ? value.map(packUuid) : value;
}

function unpackList(value: unknown): unknown {
  return Array.isArray(value) ? value.map(unpackUuid) : value;
}

const identity = (value: unknown): unknown => value;

/** Per field: its shorter form and back. A field not listed is stored as it is. */
const FORMS: Partial<Record<Field, { pack: (value: unknown) => unknown; unpack: (value: unknown) => unknown }>> = {
  _id: { pack: packUuid, unpack: unpackUuid },
  project_id: { pack: packUuid, unpack: unpackUuid },
  token: { pack: packHex, unpack: unpackHex },
  topics: { pack: packList, unpack: unpackList },
};

const packers = INDEXED_FIELDS.map((field) => FORMS[field]?.pack ?? identity);
const unpackers = INDEXED_FIELDS.map((field) => FORMS[field]?.unpack ?? identity);

// Records off: a row's only objects are its metadata and position, each written once.
const packr = new Packr({ useRecords: false, moreTypes: false });

export function encodeRow(row: IndexedDevice): Buffer {
  const source = row as unknown as Record<string, unknown>;
  return packr.pack(INDEXED_FIELDS.map((field, at) => (source[field] === undefined ? undefined : packers[at]!(source[field]))));
}

export function decodeRow(bytes: Uint8Array): IndexedDevice {
  const values = packr.unpack(bytes) as unknown[];
  const row: Record<string, unknown> = {};
  for (let at = 0; at < INDEXED_FIELDS.length; at += 1) {
    const value = values[at];
    if (value !== undefined) row[INDEXED_FIELDS[at]!] = unpackers[at]!(value);
  }
  return row as unknown as IndexedDevice;
}

/**
 * A device id as a key of the ids database (pure): the partition (2 bytes),
 * then 0 and the id's 16 bytes when it is a canonical uuid, else 1 and its
 * UTF-8 bytes — 19 bytes for the ids Herald derives, against 48 as an
 * array key.
 */
export function idKey(partition: number, deviceId: string): Buffer {
  const uuid = uuidBytes(deviceId);
  const key = Buffer.allocUnsafe(3 + (uuid === undefined ? Buffer.byteLength(deviceId) : 16));
  key.writeUInt16BE(partition, 0);
  key[2] = uuid === undefined ? 1 : 0;
  if (uuid === undefined) key.write(deviceId, 3, 'utf8');
  else uuid.copy(key, 3);
  return key;
}

