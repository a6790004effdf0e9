import { describe, expect, it } from 'vitest';
import { tallyOf } from './delivery-ledger.ts';
import { batchProvider, planReceiptPage, tallied } from './ledger-rows.ts';

const batches = [
  { _id: 'n:apns:0', tally: { delivered: 3, failed: 1 } },
  { _id: 'n:apns:1', tally: { delivered: 2 } },
  { _id: 'n:fcm:0', tally: { invalid: 1, delivered: 1 } },
];

describe('receipt paging over batch tallies', () => {
  it('tallies outcomes of a batch', () => {
    expect(tallyOf([{ device_id: 'a', outcome: 'delivered' }, { device_id: 'b', outcome: 'delivered' }, { device_id: 'c', outcome: 'cancelled' }])).toEqual({ delivered: 2, cancelled: 1 });
    expect(tallied({ delivered: 2, cancelled: 1 }, undefined)).toBe(3);
    expect(tallied({ delivered: 2, cancelled: 1 }, 'failed')).toBe(0);
  });

  it('reads only the batches a page covers, from the right row', () => {
    expect(planReceiptPage(batches, undefined, 0, 3)).toEqual({ count: 8, slices: [{ batch_id: 'n:apns:0', skip: 0, take: 3 }] });
    expect(planReceiptPage(batches, undefined, 3, 3)).toEqual({
      count: 8,
      slices: [
        { batch_id: 'n:apns:0', skip: 3, take: 1 },
        { batch_id: 'n:apns:1', skip: 0, take: 2 },
      ],
    });
    expect(planReceiptPage(batches, undefined, 6, 10)).toEqual({ count: 8, slices: [{ batch_id: 'n:fcm:0', skip: 0, take: 2 }] });
    expect(planReceiptPage(batches, undefined, 8, 10)).toEqual({ count: 8, slices: [] });
  });

  it('counts and pages only the rows with the asked outcome', () => {
    expect(planReceiptPage(batches, 'delivered', 2, 3)).toEqual({
      count: 6,
      slices: [
        { batch_id: 'n:apns:0', skip: 2, take: 1 },
        { batch_id: 'n:apns:1', skip: 0, take: 2 },
      ],
    });
    expect(planReceiptPage(batches, 'invalid', 0, 20)).toEqual({ count: 1, slices: [{ batch_id: 'n:fcm:0', skip: 0, take: 1 }] });
  });

  it('reads the provider from a batch id', () => {
    expect(batchProvider('0199-aa:fcm:12')).toBe('fcm');
    expect(batchProvider('0199-aa:apns:0')).toBe('apns');
    expect(batchProvider('legacy')).toBeUndefined();
  });
});
