import { describe, expect, it } from 'vitest';
import { filterFrom } from './dlq.ts';
import { showValue, table } from './dlq-format.ts';

describe('dlq options', () => {
  it('builds the filter, with --since as a time', () => {
    expect(filterFrom({ topic: 'herald.device-events', error: 'E11000', since: '2025-01-31T12:00:00Z' })).toEqual({ topic: 'herald.device-events', error: 'E11000', since: new Date('2025-01-31T12:00:00Z') });
  });
  it.each(['yesterday', '2025-13-45', '1700000000'])('refuses --since %j, naming the option', (since) => {
    expect(() => filterFrom({ since })).toThrow(/--since must be an ISO 8601 time/);
  });
});

describe('showValue', () => {
  it('says why JSON is not a Herald event, keeps text and base64 for binary', () => {
    const json = showValue(Buffer.from('{"type":"DeviceRegistered","version":1}'));
    expect(json).toMatchObject({ kind: 'json', json: { type: 'DeviceRegistered' } });
    expect(json.kind === 'json' && json.problem).toMatch(/not an event envelope/);
    expect(showValue(Buffer.from('plain words'))).toMatchObject({ kind: 'text', text: 'plain words', bytes: 11 });
    expect(showValue(Buffer.from([0xff, 0xfe, 0x00]))).toMatchObject({ kind: 'binary', base64: '//4A', bytes: 3 });
    expect(showValue(null)).toMatchObject({ kind: 'none' });
  });
});

describe('table', () => {
  it('aligns columns and leaves the last unpadded', () => {
    expect(table(['a', 'bb', 'c'], [['xxx', 'y', 'long text']])).toEqual(['a    bb  c', 'xxx  y   long text']);
  });
});
