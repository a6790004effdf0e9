import { describe, expect, it } from 'vitest';
import { closingFrame, decodeStreamId, encodeStreamId } from './event-stream.ts';

const topics = ['herald.notification-events', 'herald.device-events'];
const position = { 'herald.notification-events': { 0: 12, 1: 0 }, 'herald.device-events': { 0: 3 } };

describe('stream ids', () => {
  it('round-trip for the project and key that made them', () => {
    expect(decodeStreamId('k1', 'p1', encodeStreamId('k1', 'p1', position), topics)).toEqual(position);
  });

  it('are refused from another project, under another key, altered, unsigned or naming no partitions', () => {
    const id = encodeStreamId('k1', 'p1', position);
    expect(decodeStreamId('k1', 'p2', id, topics)).toBeUndefined();
    expect(decodeStreamId('k2', 'p1', id, topics)).toBeUndefined();
    const [payload, signature] = id.slice(3).split('.');
    const forged = Buffer.from(JSON.stringify({ ...position, 'herald.device-events': { 0: 0 } })).toString('base64url');
    expect(decodeStreamId('k1', 'p1', `v2.${forged}.${signature}`, topics)).toBeUndefined();
    expect(decodeStreamId('k1', 'p1', `v2.${payload}`, topics)).toBeUndefined();
    // The old unsigned form, e.g. an empty position map that would read every partition from its start.
    expect(decodeStreamId('k1', 'p1', `v1.${Buffer.from('{}').toString('base64url')}`, topics)).toBeUndefined();
    expect(decodeStreamId('k1', 'p1', encodeStreamId('k1', 'p1', {}), topics)).toBeUndefined();
    expect(decodeStreamId('k1', 'p1', encodeStreamId('k1', 'p1', { 'herald.notification-events': { 0: 1 } }), topics)).toBeUndefined();
    expect(decodeStreamId('k1', 'p1', encodeStreamId('k1', 'p1', { ...position, 'herald.device-events': {} }), topics)).toBeUndefined();
  });

  it('ends a stream with a comment and a short retry', () => {
    expect(closingFrame('server\nshutting down')).toBe(': server shutting down\nretry: 1000\n\n');
  });
});
