import { describe, expect, it } from 'vitest';
import { parseBudget } from './projects.ts';

describe('parseBudget', () => {
  it('takes a whole number of pushes per second', () => {
    expect(parseBudget('300')).toBe(300);
    expect(parseBudget('1')).toBe(1);
  });

  it('refuses anything else, naming the rule', () => {
    for (const text of ['0', '-5', '2.5', 'fast', '10000001']) {
      expect(() => parseBudget(text)).toThrow(`budget ${text} must be a whole number of pushes per second from 1 to 10000000, or off`);
    }
  });
});
