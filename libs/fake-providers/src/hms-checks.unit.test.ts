import { describe, expect, it } from 'vitest';
import { checkHmsBody } from './hms-checks.ts';

const notification = { title: 'Hi', body: 'There', click_action: { type: 3 } };
const body = (message: Record<string, unknown>) => ({ validate_only: false, message: { token: ['t1'], data: '{}', android: { notification }, ...message } });

describe('checkHmsBody', () => {
  it('accepts a Push Kit message and returns it without its tokens', () => {
    const checked = checkHmsBody(body({}));
    expect(checked).toEqual({ ok: true, tokens: ['t1'], message: { data: '{}', android: { notification } } });
  });

  it('refuses what Push Kit refuses, with its codes', () => {
    const code = (json: unknown) => (checkHmsBody(json) as { ok: false; answer: { code: string } }).answer.code;
    expect(code({})).toBe('80100003');
    expect(code(body({ token: [] }))).toBe('80100001');
    expect(code(body({ token: Array.from({ length: 1001 }, () => 't') }))).toBe('80300010');
    expect(code(body({ data: { a: 1 } }))).toBe('80100001');
    expect(code(body({ android: { notification: { title: 'Hi', body: 'x' } } }))).toBe('80100001');
    expect(code(body({ android: { urgency: 'URGENT' } }))).toBe('80100001');
    expect(code(body({ android: { collapse_key: 101 } }))).toBe('80100013');
    expect(code(body({ data: 'x'.repeat(5000) }))).toBe('80300008');
  });
});
