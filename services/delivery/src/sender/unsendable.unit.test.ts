import { describe, expect, it } from 'vitest';
import { inBatchOrder, splitUnsendable } from './unsendable.ts';

const good = { device_id: 'd-good', token: 'ab'.repeat(32) };
const spaced = { device_id: 'd-space', token: `${'ab'.repeat(31)} 0` };
const short = { device_id: 'd-short', token: 'abcd' };

describe('splitUnsendable', () => {
  it('ends tokens APNs can never accept as invalid, MalformedToken, without sending them', () => {
    const { sendable, unsendable } = splitUnsendable('apns', [spaced, good, short]);
    expect(sendable).toEqual([good]);
    expect(unsendable).toEqual([
      { device_id: 'd-space', outcome: 'token-invalid', reason: 'MalformedToken', attempts: 1 },
      { device_id: 'd-short', outcome: 'token-invalid', reason: 'MalformedToken', attempts: 1 },
    ]);
  });

  it('judges FCM tokens by their own alphabet', () => {
    const { sendable, unsendable } = splitUnsendable('fcm', [{ device_id: 'a', token: 'cX:APA91b-_' }, { device_id: 'b', token: 'bad token' }]);
    expect(sendable.map((device) => device.device_id)).toEqual(['a']);
    expect(unsendable.map((result) => result.device_id)).toEqual(['b']);
  });

  it('puts the results of both parts back in the batch order', () => {
    const sent = [{ device_id: 'd-good', outcome: 'delivered' as const, attempts: 1 }];
    const { unsendable } = splitUnsendable('apns', [spaced, good, short]);
    expect(inBatchOrder([spaced, good, short], sent, unsendable).map((result) => result.device_id)).toEqual(['d-space', 'd-good', 'd-short']);
  });
});
