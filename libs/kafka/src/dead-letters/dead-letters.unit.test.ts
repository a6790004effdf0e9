import { describe, expect, it } from 'vitest';
import { AppError, EventDecodeError } from '@herald/errors';
import { deadLetterFor, redrivenForAnotherGroup, type SourceRecord } from '../dead-letter.ts';
import { headerStrings } from '../log-reader.ts';
import { countDeadLetters, errorSummary, kindOf, matches, parseDeadLetter, parseRef, safeText, type DeadLetterEntry } from './letters.ts';
import { redriveCopy, selectForRedrive } from './redrive-copy.ts';

const PREFIX = 't1.';
const source: SourceRecord & { headers: Record<string, string> } = { topic: 't1.herald.device-events', partition: 2, offset: '41', key: Buffer.from('device-1'), value: Buffer.from('{"not":"an event"}'), headers: { type: 'DeviceRegistered', project_id: 'p1' }, timestamp: '1700000000000' };

/** A dead letter as a consumer writes it, read back as the DLQ reader sees it. */
function letterAt(offset: number, error: unknown, at: string, from: typeof source = source): DeadLetterEntry {
  const letter = deadLetterFor(from, { topic: 't1.herald.device-events.dlq.herald.projector.devices.v1', groupId: 't1.herald.projector.devices.v1' }, error, new Date(at));
  const entry = parseDeadLetter({ topic: 'herald.device-events.dlq.herald.projector.devices.v1', partition: 0, offset, key: letter.message.key, value: letter.message.value, headers: headerStrings(letter.message.headers) }, PREFIX);
  if (entry === undefined) throw new Error('not parsed as a dead letter');
  return entry;
}

describe('dead letter refs', () => {
  it('parses <dlq topic>:<partition>:<offset>', () => {
    expect(parseRef('herald.device-events.dlq.herald.projector.devices.v1:0:17')).toEqual({ topic: 'herald.device-events.dlq.herald.projector.devices.v1', partition: 0, offset: 17 });
  });
  it.each(['herald.device-events:0:1', 'x.dlq.y:0', 'x.dlq.y:a:1', 'x.dlq.y:0:-1', ''])('refuses %j, naming the shape', (ref) => {
    expect(() => parseRef(ref)).toThrow(/ref must be <dlq topic>:<partition>:<offset>/);
  });
});

describe('parseDeadLetter', () => {
  it('reads provenance with logical names, the original headers and the error chain', () => {
    const entry = letterAt(5, new AppError('UNPROCESSABLE', 'outer', { cause: new Error('inner') }), '2025-01-02T03:04:05.000Z');
    expect(entry).toMatchObject({
      ref: 'herald.device-events.dlq.herald.projector.devices.v1:0:5',
      source: { topic: 'herald.device-events', partition: 2, offset: 41, timestamp: '2023-11-14T22:13:20.000Z' },
      group: 'herald.projector.devices.v1',
      groupId: 't1.herald.projector.devices.v1',
      failedAt: '2025-01-02T03:04:05.000Z',
      kind: 'handler-error',
      headers: { type: 'DeviceRegistered', project_id: 'p1' },
      redriveCount: 0,
      history: [],
    });
    expect(entry.error).toEqual([{ name: 'AppError', message: 'outer', code: 'UNPROCESSABLE' }, { name: 'Error', message: 'inner' }]);
  });
  it('is undefined for a record without provenance', () => {
    expect(parseDeadLetter({ topic: 'x.dlq.y', partition: 0, offset: 0, key: null, value: null, headers: {} }, '')).toBeUndefined();
  });
  it('tells undecodable from schema-invalid from handler errors', () => {
    expect(kindOf([{ name: 'EventDecodeError', code: 'EVENT_DECODE_FAILED', message: 'record value is not JSON' }])).toBe('undecodable');
    expect(kindOf([{ name: 'EventDecodeError', code: 'EVENT_DECODE_FAILED', message: 'invalid DeviceRegistered v1: /data must have token' }])).toBe('schema-invalid');
    expect(kindOf([{ name: 'EventDecodeError', code: 'EVENT_DECODE_FAILED', message: 'unknown event DeviceMoved v1' }])).toBe('schema-invalid');
    expect(kindOf([{ name: 'MongoServerError', message: 'E11000 duplicate key', code: '11000' }])).toBe('handler-error');
    expect(kindOf([])).toBe('handler-error');
  });
});

describe('countDeadLetters', () => {
  it('counts by topic, group and error with the oldest and newest failure, largest first', () => {
    const invalid = () => new EventDecodeError('invalid DeviceRegistered v1: /data/token required\nmore detail');
    const entries = [
      letterAt(0, invalid(), '2025-01-02T00:00:00.000Z'),
      letterAt(1, new Error('E11000 duplicate key'), '2025-01-01T00:00:00.000Z'),
      letterAt(2, invalid(), '2025-01-01T00:00:00.000Z'),
      letterAt(3, invalid(), '2025-01-03T00:00:00.000Z'),
    ];
    expect(countDeadLetters(entries)).toEqual([
      { topic: 'herald.device-events.dlq.herald.projector.devices.v1', group: 'herald.projector.devices.v1', kind: 'schema-invalid', error: 'EVENT_DECODE_FAILED: invalid DeviceRegistered v1: /data/token required', match: 'invalid DeviceRegistered v1: /data/token required', count: 3, oldest: '2025-01-01T00:00:00.000Z', newest: '2025-01-03T00:00:00.000Z' },
      { topic: 'herald.device-events.dlq.herald.projector.devices.v1', group: 'herald.projector.devices.v1', kind: 'handler-error', error: 'Error: E11000 duplicate key', match: 'E11000 duplicate key', count: 1, oldest: '2025-01-01T00:00:00.000Z', newest: '2025-01-01T00:00:00.000Z' },
    ]);
  });
  it("gives each row an error filter that selects that row's dead letters", () => {
    const entries = [letterAt(0, new EventDecodeError('invalid DeviceRegistered v1: /data/token required\nmore'), '2025-01-02T00:00:00.000Z'), letterAt(1, new Error('E11000 duplicate key'), '2025-01-01T00:00:00.000Z')];
    for (const row of countDeadLetters(entries)) {
      expect(entries.filter((entry) => matches(entry, { group: row.group, topic: row.topic, error: row.match })).map((entry) => errorSummary(entry.error))).toEqual([row.error]);
    }
  });
  it('bounds a long error', () => {
    expect(errorSummary([{ name: 'Error', message: 'x'.repeat(500) }])).toHaveLength(160);
  });
});

describe('redrive', () => {
  const failed = letterAt(7, new Error('topic not found'), '2025-01-02T00:00:00.000Z');
  const now = new Date('2025-02-01T00:00:00.000Z');

  it('copies the original key, value, headers and partition, with redrive provenance', () => {
    const copy = redriveCopy(failed, now);
    expect(copy).toMatchObject({ topic: 'herald.device-events', partition: 2, key: source.key, value: source.value });
    expect(copy.headers).toMatchObject({
      type: 'DeviceRegistered',
      project_id: 'p1',
      'dlq.redrive.id': failed.ref,
      'dlq.redrive.group': 't1.herald.projector.devices.v1',
      'dlq.redriven_from': failed.ref,
      'dlq.redriven_at': '2025-02-01T00:00:00.000Z',
      'dlq.redrive_count': '1',
    });
    expect(JSON.parse(copy.headers['dlq.history']!)).toEqual([{ group: 'herald.projector.devices.v1', source: 'herald.device-events:2:41', failed_at: '2025-01-02T00:00:00.000Z', error: [{ name: 'Error', message: 'topic not found' }] }]);
    expect(Object.keys(copy.headers).filter((name) => name.startsWith('dlq.source') || name === 'dlq.error')).toEqual([]);
  });

  it('keeps the history when a redriven copy fails again and is redriven again', () => {
    const first = redriveCopy(failed, now);
    const again = letterAt(9, new Error('still not found'), '2025-02-01T00:01:00.000Z', { ...source, offset: '90', headers: first.headers });
    expect(again.redriveCount).toBe(1);
    expect(again.history.map((failure) => failure.source)).toEqual(['herald.device-events:2:41']);
    const second = redriveCopy(again, new Date('2025-02-02T00:00:00.000Z'));
    expect(second.headers['dlq.redrive_count']).toBe('2');
    expect((JSON.parse(second.headers['dlq.history']!) as Array<{ source: string; error: Array<{ message: string }> }>).map((failure) => [failure.source, failure.error[0]!.message])).toEqual([
      ['herald.device-events:2:41', 'topic not found'],
      ['herald.device-events:2:90', 'still not found'],
    ]);
  });

  it('is meant for the group that dead-lettered it only', () => {
    const { headers } = redriveCopy(failed, now);
    expect(redrivenForAnotherGroup(headers, 't1.herald.projector.devices.v1')).toBe(false);
    expect(redrivenForAnotherGroup(headers, 't1.herald.projector.topics.v1')).toBe(true);
    expect(redrivenForAnotherGroup({ type: 'DeviceRegistered' }, 't1.herald.projector.topics.v1')).toBe(false);
    expect(redrivenForAnotherGroup({ 'dlq.redrive.group': Buffer.from('t1.g') }, 't1.g')).toBe(false);
  });

  it('selects matching dead letters the redrive log does not have', () => {
    const other = letterAt(8, new EventDecodeError('record value is not JSON'), '2024-12-01T00:00:00.000Z');
    const log = new Map([[failed.ref, { redriven_at: '2025-01-05T00:00:00.000Z', to: 'herald.device-events:2' }]]);
    expect(selectForRedrive([failed, other], {}, log)).toEqual({ selected: [other], alreadyRedriven: [{ entry: failed, log: log.get(failed.ref) }] });
    expect(selectForRedrive([failed, other], { error: 'NOT JSON' }, new Map()).selected).toEqual([other]);
    expect(selectForRedrive([failed, other], { error: 'event_decode' }, new Map()).selected).toEqual([other]);
    expect(selectForRedrive([failed, other], { since: new Date('2025-01-01T00:00:00Z') }, new Map()).selected).toEqual([failed]);
    expect(selectForRedrive([failed, other], { topic: 'herald.device-events' }, new Map()).selected).toHaveLength(2);
    expect(selectForRedrive([failed, other], { topic: failed.topic, group: 'herald.projector.topics.v1' }, new Map()).selected).toEqual([]);
  });
});

describe('safeText', () => {
  it('escapes terminal control characters and leaves the rest', () => {
    expect(safeText('ok \u001b[31mred\u009b\u0007 é')).toBe('ok \\u001b[31mred\\u009b\\u0007 é');
  });
});
