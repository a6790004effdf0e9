import { Packr } from 'msgpackr';
import type { IndexedDevice } from './index-rows.ts';

/**
 * How the index stores a row (pure, exact both ways): a MessagePack array in
 * the order of `ROW_FIELDS`, with the values that dominate a row's size in a
 * shorter form where one exists — a canonical uuid (the device's id, its
 * project's, each topic's) as its 16 bytes, a lowercase hex token (APNs) as
 * its bytes, a registration time in `toISOString` form as milliseconds.
 * Anything else is kept as it is, so `decodeRow(encodeRow(row))` equals the
 * row for every row, and an absent field stays absent. A 1M-device index's
 * rows are about a third smaller (row-codec.unit.test.ts).
 */
export const ROW_FIELDS = ['_id', 'project_id', 'token', 'platform', 'status', 'topics', 'metadata', 'external_id', 'timezone', 'registered_at', 'position', 'since'] as const;

type Field = (typeof ROW_FIELDS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LOWER_HEX = /^(?:[0-9a-f]{2})+$/;

function packUuid(value: unknown): unknown {
  return typeof value === 'string' && UUID.test(value) ? Buffer.from(value.replaceAll('-', ''), 'hex') : value;
}

function unpackUuid(value: unknown): unknown {
  if (!(value instanceof Uint8Array)) return value;
  const hex = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function packHex(value: unknown): unknown {
  return typeof value === 'string' && LOWER_HEX.test(value) ? Buffer.from(value, 'hex') : value;
}

function unpackHex(value: unknown): unknown {
  return value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex') : value;
}

function packTime(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && new Date(ms).toISOString() === value ? ms : value;
}

function unpackTime(value: unknown): unknown {
  return typeof value === 'number' ? new Date(value).toISOString() : value;
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
  registered_at: { pack: packTime, unpack: unpackTime },
};

const packers = ROW_FIELDS.map((field) => FORMS[field]?.pack ?? identity);
const unpackers = ROW_FIELDS.map((field) => FORMS[field]?.unpack ?? identity);

// Records off: a row's only objects are its metadata and position, each written once.
const packr = new Packr({ useRecords: false, moreTypes: false });

export function encodeRow(row: IndexedDevice): Buffer {
  const source = row as unknown as Record<string, unknown>;
  return packr.pack(ROW_FIELDS.map((field, at) => (source[field] === undefined ? undefined : packers[at]!(source[field]))));
}

export function decodeRow(bytes: Uint8Array): IndexedDevice {
  const values = packr.unpack(bytes) as unknown[];
  const row: Record<string, unknown> = {};
  for (let at = 0; at < ROW_FIELDS.length; at += 1) {
    const value = values[at];
    if (value !== undefined) row[ROW_FIELDS[at]!] = unpackers[at]!(value);
  }
  return row as unknown as IndexedDevice;
}

/** The codec lmdb-js calls for the rows databases. */
export const rowCodec = { encode: encodeRow, decode: decodeRow };
