import { describe, expect, it } from 'vitest';
import { createRuleBook } from './rules.ts';

describe('createRuleBook', () => {
  const rules = [
    { prefix: 'busy-', times: 2, reason: 'first two' },
    { prefix: 'busy-', reason: 'afterwards' },
    { prefix: 'gone-', reason: 'always' },
  ];

  it('takes the first matching rule that has uses left', () => {
    const book = createRuleBook(rules);
    expect(['busy-1', 'busy-2', 'busy-3'].map((token) => book.take(token)?.reason)).toEqual(['first two', 'first two', 'afterwards']);
    expect(book.take('gone-1')?.reason).toBe('always');
    expect(book.take('fine-1')).toBeUndefined();
  });

  it('counts afresh after resetCounts and after replace', () => {
    const book = createRuleBook(rules.slice(0, 1));
    book.take('busy-1');
    book.take('busy-1');
    expect(book.take('busy-1')).toBeUndefined();
    book.resetCounts();
    expect(book.take('busy-1')?.reason).toBe('first two');
    book.replace([{ prefix: 'x', reason: 'new' }]);
    expect(book.take('busy-1')).toBeUndefined();
    expect(book.rules).toEqual([{ prefix: 'x', reason: 'new' }]);
  });
});
