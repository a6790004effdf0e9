import { describe, expect, it } from 'vitest';
import { targetProblems } from './target-problems.ts';

describe('targetProblems', () => {
  it('names metadata filter keys with white space at either end, and nothing else', () => {
    expect(targetProblems({ targets: ['news', { metadata: { plan: 'pro', 'my key': 'v' } }, { external_id: 'u' }] })).toEqual([]);
    expect(targetProblems({ targets: [{ metadata: { 'plan ': 'pro' } }, 'x', { metadata: { '\u00a0a': 'v', '\u0085b': 'v', c: 'v' } }] })).toEqual([
      'notification.targets[0].metadata key "plan " must not start or end with white space',
      'notification.targets[2].metadata key "\u00a0a" must not start or end with white space',
      'notification.targets[2].metadata key "\u0085b" must not start or end with white space',
    ]);
    expect(targetProblems(undefined)).toEqual([]);
    expect(targetProblems({ targets: 'x' })).toEqual([]);
  });
});
