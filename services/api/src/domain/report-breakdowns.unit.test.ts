import { describe, expect, it } from 'vitest';
import { ZERO_COUNTS, type NotificationDocument } from '@herald/read-models';
import { decisionRow, localeRows, openRate, variantRows } from './report-breakdowns.ts';

const counts = (add: Partial<typeof ZERO_COUNTS>) => ({ ...ZERO_COUNTS, ...add });
const options = { variants: [{ name: 'B', title: 'b', body: 'b' }, { name: 'A', title: 'a', body: 'a' }, { name: 'C', title: 'c', body: 'c' }], test: { percent: 50, decide_after: 'PT1H', metric: 'open_rate' } };

describe("a report's breakdowns", () => {
  it('lists the variants by name, then the remainder and the holdout, each with its funnel and open rate', () => {
    const rows = variantRows({
      options,
      by_variant: {
        holdout: counts({ targeted: 3, held_out: 3 }),
        remainder: counts({ targeted: 10, delivered: 9, failed: 1, opened: 3 }),
        B: counts({ targeted: 5, delivered: 4, invalid: 1, opened: 2 }),
        A: counts({ targeted: 5, delivered: 5, opened: 1 }),
      },
    });
    expect(rows).toEqual([
      { variant: 'A', kind: 'variant', targeted: 5, delivered: 5, failed: 0, opened: 1, open_rate: 0.2, held_out: 0 },
      { variant: 'B', kind: 'variant', targeted: 5, delivered: 4, failed: 1, opened: 2, open_rate: 0.5, held_out: 0 },
      // Requested, not reported yet: at zero, its rate unknown.
      { variant: 'C', kind: 'variant', targeted: 0, delivered: 0, failed: 0, opened: 0, open_rate: null, held_out: 0 },
      { variant: 'remainder', kind: 'remainder', targeted: 10, delivered: 9, failed: 1, opened: 3, open_rate: 1 / 3, held_out: 0 },
      { variant: 'holdout', kind: 'holdout', targeted: 3, delivered: 0, failed: 0, opened: 0, open_rate: null, held_out: 3 },
    ]);
    expect(variantRows({})).toBeUndefined();
  });

  it('shows the decision once made, null while an A/B test waits for it, nothing for other sends', () => {
    const decision: NonNullable<NotificationDocument['decision']> = {
      notification_id: 'n', metric: 'open_rate', arms: [], best: 'B', runner_up: 'A', significant: true, p_value: 0.01, chosen: 'B', reason: 'significant', remainder_fanout_id: 'n#remainder',
    };
    expect(decisionRow({ options, decision, decided_at: '2026-05-01T10:00:00.000Z' })).toEqual({ winner: 'B', best: 'B', significant: true, reason: 'significant', p_value: 0.01, decided_at: '2026-05-01T10:00:00.000Z' });
    expect(decisionRow({ options, decision })?.decided_at).toBeNull();
    expect(decisionRow({ options })).toBeNull();
    expect(decisionRow({ options: { variants: options.variants } })).toBeUndefined();
    expect(decisionRow({})).toBeUndefined();
  });

  it('lists the locales most targeted first', () => {
    const zero = { delivered: 0, failed: 0, invalid: 0, cancelled: 0, expired: 0, capped: 0, opened: 0 };
    expect(localeRows({ es: { ...zero, targeted: 1, failed: 1 }, fr: { ...zero, targeted: 2, delivered: 2, opened: 1 }, default: { ...zero, targeted: 2, delivered: 2 } })).toEqual([
      { locale: 'default', targeted: 2, delivered: 2, failed: 0, opened: 0, open_rate: 0 },
      { locale: 'fr', targeted: 2, delivered: 2, failed: 0, opened: 1, open_rate: 0.5 },
      { locale: 'es', targeted: 1, delivered: 0, failed: 1, opened: 0, open_rate: null },
    ]);
    expect(localeRows(undefined)).toBeUndefined();
    expect(openRate(0, 0)).toBeNull();
  });
});
