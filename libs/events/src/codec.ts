import { Compile, type Validator } from 'typebox/compile';
import type { TSchema } from 'typebox';
import { EventDecodeError } from '@herald/errors';
import { CATALOG, findEntry, type CatalogEntry, type HeraldEvent } from './catalog.ts';
import { EnvelopeHeader } from './envelope.ts';
import { useFastDateTimeFormat } from './date-time.ts';

/** A Kafka record as Herald writes it, independent of any Kafka client. */
export interface EncodedRecord {
  key: string;
  value: string;
  headers: Record<string, string>;
}

// Every event is checked when written and when read: typebox's date-time check was a noticeable part of that (date-time.ts).
useFastDateTimeFormat();

const validators = new Map<string, Validator>();
function validatorFor(entry: CatalogEntry): Validator {
  let validator = validators.get(entry.id);
  if (validator === undefined) {
    validator = Compile(entry.schema);
    validators.set(entry.id, validator);
  }
  return validator;
}
const headerValidator = Compile(EnvelopeHeader);

function describeErrors(validator: Validator, value: unknown): string[] {
  return validator.Errors(value).slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message}`);
}

/** Validates and serialises an event; an invalid event is a bug in the producer, so it throws. */
export function encodeEvent(event: HeraldEvent): EncodedRecord {
  const { type, version } = event;
  const entry = findEntry(type, version);
  if (entry === undefined) throw new EventDecodeError(`unknown event ${type} v${version}`);
  const validator = validatorFor(entry);
  if (!validator.Check(event)) {
    throw new EventDecodeError(`invalid ${type} v${version}: ${describeErrors(validator, event).join('; ')}`);
  }
  return {
    key: event.stream_id,
    value: JSON.stringify(event),
    headers: { type: event.type, version: String(event.version), project_id: event.project_id },
  };
}

/**
 * Parses and validates a record value into the latest version of its event.
 * Anything that is not a known, valid event raises EventDecodeError, which
 * consumers dead-letter.
 */
export function decodeEvent(value: Buffer | string | null | undefined): HeraldEvent {
  if (value === null || value === undefined || value.length === 0) {
    throw new EventDecodeError('record has no value (tombstone or empty)');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof value === 'string' ? value : value.toString('utf8'));
  } catch (cause) {
    throw new EventDecodeError('record value is not JSON', { cause });
  }
  if (!headerValidator.Check(parsed)) {
    throw new EventDecodeError(`record is not an event envelope: ${describeErrors(headerValidator, parsed).join('; ')}`);
  }
  const { type, version } = parsed;
  const entry = findEntry(type, version);
  if (entry === undefined) throw new EventDecodeError(`unknown event ${type} v${version}`);
  const validator = validatorFor(entry);
  if (!validator.Check(parsed)) {
    throw new EventDecodeError(`invalid ${type} v${version}: ${describeErrors(validator, parsed).join('; ')}`);
  }
  return upcast(parsed);
}

/**
 * Older versions whose successor only added optional fields: the old data is
 * valid data of the next version as it stands, so upcasting renumbers it.
 * A breaking change (a field removed, renamed or retyped) gets its own
 * function here instead.
 */
const ADDITIVE_SUCCESSORS: ReadonlySet<string> = new Set([
  'DeviceRegistered.v1',
  'MetadataUpdated.v1',
  'NotificationRequested.v1',
  'DeliveryReported.v1',
  'NotificationOpened.v1',
  'FanoutTask.v1',
  'DeliveryBatch.v1',
  'DeviceDeactivated.v1',
  'NotificationDispatched.v1',
  'LiveActivityRequested.v1',
  'LiveActivityReported.v1',
]);

/** The latest version of a decoded event (consumers only ever see those). */
function upcast(event: { type: string; version: number }): HeraldEvent {
  let current = event;
  while (ADDITIVE_SUCCESSORS.has(`${current.type}.v${current.version}`)) current = { ...current, version: current.version + 1 };
  return current as HeraldEvent;
}

/** For tests and the export script: every schema, keyed by `<Type>.v<N>`. */
export function eventSchemas(): ReadonlyArray<{ id: string; schema: TSchema }> {
  return CATALOG.map((entry) => ({ id: entry.id, schema: entry.schema }));
}
