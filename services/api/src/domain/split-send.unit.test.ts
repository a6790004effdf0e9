import { describe, expect, it } from 'vitest';
import { splitProblems } from './split-send.ts';

const variants = [
  { name: 'A', title: 'Sale', body: 'Today' },
  { name: 'B', template: 'promo@2', variables: { pct: 20 } },
];

describe('splitProblems', () => {
  it('takes literal and template variants with a holdout, a test and a fallback', () => {
    expect(splitProblems({ variants, holdout_percent: 10, test: { decide_after: 'PT2H' }, fallback: 'B' })).toEqual([]);
    expect(splitProblems({ title: 'x', body: 'y' })).toEqual([]);
  });

  it('names each problem by its field', () => {
    expect(splitProblems({ holdout_percent: 5, fallback: 'A' })).toEqual(['notification.holdout_percent needs notification.variants', 'notification.fallback needs notification.variants']);
    expect(splitProblems({ variants: [variants[0]!, { name: 'A', title: 'x' }], title: 't', test: { decide_after: 'P1Y' }, fallback: 'C' })).toEqual([
      "notification.title: an A/B send's content is in its variants",
      'notification.variants[1].name: "A" is used by another variant',
      'notification.variants[1].title and notification.variants[1].body are required unless notification.variants[1].template is given',
      'notification.fallback: "C" is not the name of a variant',
      'notification.test.decide_after: "P1Y" is not an ISO 8601 duration of days, hours, minutes and seconds (PT2H, P1DT30M, PT90S)',
    ]);
    expect(splitProblems({ variants, test: { decide_after: 'P8D' } })).toEqual(['notification.test.decide_after: at most P7D']);
    expect(splitProblems({ variants, fallback: 'A' })).toEqual(['notification.fallback needs notification.test (without a test nothing is decided)']);
    expect(splitProblems({ variants: [{ name: 'A', title: 'a', body: 'b', variables: {} }, { name: 'B', template: 't', title: 'x' }] })).toEqual([
      'notification.variants[0].variables needs notification.variants[0].template',
      'notification.variants[1]: give either template (with variables) or title and body, not both',
    ]);
  });
});
