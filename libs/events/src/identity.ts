import { randomFillSync } from 'node:crypto';
import { parse as uuidParse, v5 as uuidV5, v7 as uuidV7 } from 'uuid';

/** Fixed namespace for Herald's derived ids. Changing it would re-key every device: never do. */
const HERALD_NAMESPACE = '6f1f3a52-5c0e-4c43-9d0b-6a0a4e1c2b7d';

/**
 * A device id is derived from (project, token) so that two concurrent
 * registrations of one token produce one device.
 */
export function deviceIdFor(projectId: string, token: string): string {
  return derivedId(`device\u0000${projectId}\u0000${token}`);
}

/** A saved segment's id is derived from (project, name): a name finds its segment, and two creations of one name collide. */
export function segmentIdFor(projectId: string, name: string): string {
  return derivedId(`segment\u0000${projectId}\u0000${name}`);
}

/** A topic id is derived from (project, name), so creating a topic twice is harmless. */
export function topicIdFor(projectId: string, name: string): string {
  return derivedId(`topic\u0000${projectId}\u0000${name}`);
}

const NAMESPACE_BYTES = uuidParse(HERALD_NAMESPACE);

/** No UTF-8 text starts with this byte: names hashed behind it never meet a well-formed name's bytes. */
const ILL_FORMED_MARK = Buffer.from([0xff]);

/**
 * UUID v5 of `name` in Herald's namespace. uuid encodes a string name to
 * UTF-8 with a JavaScript loop and parses the namespace on every call: 5.6 µs
 * per device id alone, 2.4 % of the delivery process's CPU under one-device
 * sends (the fan-out derives one per token it routes). Given the bytes, it
 * only hashes: 3.2 µs. A name that is not well-formed UTF-16 (a lone
 * surrogate) has no UTF-8 bytes, and uuid's own encoding throws URIError on
 * it: such a name is hashed as its UTF-16 code units behind ILL_FORMED_MARK,
 * so deriving an id never throws (the API refuses such strings; a record
 * that carries one anyway must not stop a consumer) and two such names stay
 * two ids.
 */
function derivedId(name: string): string {
  const bytes = name.isWellFormed() ? Buffer.from(name, 'utf8') : Buffer.concat([ILL_FORMED_MARK, Buffer.from(name, 'utf16le')]);
  return uuidV5(bytes, NAMESPACE_BYTES);
}

/**
 * Random bytes for ids, drawn from the system 4 KiB at a time: uuid draws
 * 16 bytes per id (a system call each), and a send takes three ids.
 */
const randomPool = Buffer.alloc(4_096);
let poolUsed = randomPool.length;
function random16(): Uint8Array {
  if (poolUsed + 16 > randomPool.length) {
    randomFillSync(randomPool);
    poolUsed = 0;
  }
  poolUsed += 16;
  return randomPool.subarray(poolUsed - 16, poolUsed);
}

/** The last id's time and counter: ids made in one millisecond count up, as uuid's own v7 does (RFC 9562, method 1). */
const clock = { msecs: Number.NEGATIVE_INFINITY, seq: 0 };

/** Time-ordered unique id for events and notifications: later ids of one process sort after earlier ones. */
export function newId(): string {
  const random = random16();
  const now = Date.now();
  if (now > clock.msecs) {
    clock.msecs = now;
    // A random start in the lower half, so the counter has room to count up within the millisecond.
    clock.seq = ((random[6]! & 0x3f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    clock.seq = (clock.seq + 1) | 0;
    if (clock.seq === 0) clock.msecs += 1;
  }
  return uuidV7({ random, msecs: clock.msecs, seq: clock.seq });
}

/**
 * A delivery batch's id: the fan-out (notification, or `<id>@<slot>`), the
 * provider, the device-events partition whose task planned it, and its
 * sequence number within that task. Unique by construction, so a report
 * counts once however often it is repeated.
 */
export function deliveryBatchId(fanoutId: string, provider: string, partition: number, sequence: number): string {
  return `${fanoutId}:${provider}:${partition}:${sequence}`;
}

/** Marks the fan-out part of a retry batch's id (its provider, partition and sequence stay readable). */
const RETRY_MARK = '+retry';

/**
 * The id of the batch that carries a batch's still-retryable devices to the
 * retry lane: deterministic (a re-sent hand-off reports once), and parsed
 * like any batch id (same provider, partition and sequence).
 */
export function retryBatchId(batchId: string): string {
  const colon = batchId.indexOf(':');
  return colon < 0 ? `${batchId}${RETRY_MARK}` : `${batchId.slice(0, colon)}${RETRY_MARK}${batchId.slice(colon)}`;
}

export interface BatchIdParts {
  fanoutId: string;
  provider: 'apns' | 'fcm' | 'webpush' | 'hms';
  /** Absent in ids written before fan-out went by partition (`<notification>:<provider>:<sequence>`). */
  partition?: number;
  sequence: number;
}

/** The parts of a batch id (either format), or undefined for anything else. */
export function parseBatchId(batchId: string): BatchIdParts | undefined {
  const parts = batchId.split(':');
  const [fanoutId, provider] = parts;
  if (fanoutId === undefined || fanoutId === '' || (provider !== 'apns' && provider !== 'fcm' && provider !== 'webpush' && provider !== 'hms')) return undefined;
  const numbers = parts.slice(2);
  if (numbers.length < 1 || numbers.length > 2 || numbers.some((part) => !/^\d+$/.test(part))) return undefined;
  const [first, second] = numbers.map(Number);
  return second === undefined ? { fanoutId, provider, sequence: first! } : { fanoutId, provider, partition: first!, sequence: second };
}
