import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, requestOf } from './draft.ts';

describe("the composer's expression field", () => {
  it('adds one target, OR\'d with the sections, and refuses what is not one target as JSON', () => {
    const expression = { and: [{ topic: 'promotions' }, { metadata: { country: 'US' } }] };
    expect(requestOf({ ...EMPTY_DRAFT, topics: ['news'], expression: JSON.stringify(expression) }).request.targets).toEqual([{ topic: 'news' }, expression]);
    expect(requestOf({ ...EMPTY_DRAFT, expression: '  ' }).request.targets).toEqual([]);
    expect(requestOf({ ...EMPTY_DRAFT, expression: '[1, 2]' }).problems.expression).toEqual(['must be one target as JSON, e.g. {"and": [{"topic": "promotions"}, {"metadata": {"country": "US"}}]}']);
    expect(requestOf({ ...EMPTY_DRAFT, expression: '{"and": [' }).problems.expression).toHaveLength(1);
  });
});
