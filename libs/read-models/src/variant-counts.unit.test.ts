import { describe, expect, it } from 'vitest';
import { variantCountsAfterOpen, variantCountsAfterReport } from './variant-counts.ts';

describe('counts by variant', () => {
  it('counts each reported line under its variant, the holdout and the remainder', () => {
    let byVariant = variantCountsAfterReport(undefined, {
      notification_id: 'n',
      batch_id: 'n:fcm:0:0',
      provider: 'fcm',
      results: [
        { device_id: 'a', outcome: 'delivered', variant: 'A' },
        { device_id: 'b', outcome: 'delivered', variant: 'B' },
        { device_id: 'c', outcome: 'failed', variant: 'B' },
        { device_id: 'h', outcome: 'held_out' },
      ],
    });
    byVariant = variantCountsAfterReport(byVariant, { notification_id: 'n', batch_id: 'n#remainder:fcm:0:0', provider: 'fcm', results: [{ device_id: 'r', outcome: 'delivered', variant: 'B' }] });
    expect(byVariant?.A).toMatchObject({ targeted: 1, sent: 1, delivered: 1 });
    expect(byVariant?.B).toMatchObject({ targeted: 2, sent: 2, delivered: 1, failed: 1 });
    expect(byVariant?.holdout).toMatchObject({ targeted: 1, sent: 0, held_out: 1 });
    expect(byVariant?.remainder).toMatchObject({ targeted: 1, delivered: 1 });
    byVariant = variantCountsAfterOpen(byVariant, { notification_id: 'n', device_id: 'b', batch_id: 'n:fcm:0:0', variant: 'B' });
    byVariant = variantCountsAfterOpen(byVariant, { notification_id: 'n', device_id: 'r', batch_id: 'n#remainder:fcm:0:0', variant: 'B' });
    expect(byVariant?.B?.opened).toBe(1);
    expect(byVariant?.remainder?.opened).toBe(1);
  });

  it('leaves a send that is no A/B test alone', () => {
    expect(variantCountsAfterReport(undefined, { notification_id: 'n', batch_id: 'n:fcm:0:0', provider: 'fcm', results: [{ device_id: 'a', outcome: 'delivered' }] })).toBeUndefined();
    expect(variantCountsAfterOpen(undefined, { notification_id: 'n', device_id: 'a', batch_id: 'n:fcm:0:0' })).toBeUndefined();
  });
});
