import { describe, expect, it } from 'vitest';
import { illFormedMessages, illFormedPaths, MAX_ILL_FORMED_REPORTED } from './well-formed.ts';

describe('illFormedPaths', () => {
  it('names nothing in well-formed data, surrogate pairs included', () => {
    expect(illFormedPaths({ title: 'Hi 😀', targets: ['a', { user: 'b' }], n: 1, ok: true, none: null }, '')).toEqual([]);
    expect(illFormedPaths(undefined)).toEqual([]);
  });

  it('names every lone surrogate, high or low, as the schema errors name fields', () => {
    const body = { token: '\udc00abc', notification: { title: 'ok', targets: ['a', 'a\ud800', { user: 'x\udfffy' }] }, data: { '\ud800': 'v' } };
    expect(illFormedPaths(body).sort()).toEqual(['data key "\\ud800"', 'notification.targets[1]', 'notification.targets[2].user', 'token']);
  });

  it('names a bare string body and a prefixed root', () => {
    expect(illFormedPaths('\ud800')).toEqual(['body']);
    expect(illFormedPaths(['\ud800'], 'header x-forwarded-for')).toEqual(['header x-forwarded-for[0]']);
  });

  it('walks any depth without recursion, and reports a bounded number of fields', () => {
    let deep: unknown = '\ud800';
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(illFormedPaths(deep)).toHaveLength(1);
    expect(illFormedPaths(Array.from({ length: 1_000 }, () => '\udc00'))).toHaveLength(MAX_ILL_FORMED_REPORTED);
  });
});

describe('illFormedMessages', () => {
  it('names the part each field came from', () => {
    const messages = illFormedMessages({ params: { id: 'a\ud800' }, query: { name: '\udc00' }, headers: { 'idempotency-key': 'k\ud800' }, body: { name: 'a\ud800' } });
    expect(messages).toEqual([
      'id must be well-formed Unicode text (it contains a lone surrogate, \\ud800-\\udfff)',
      'name must be well-formed Unicode text (it contains a lone surrogate, \\ud800-\\udfff)',
      'header idempotency-key must be well-formed Unicode text (it contains a lone surrogate, \\ud800-\\udfff)',
      'name must be well-formed Unicode text (it contains a lone surrogate, \\ud800-\\udfff)',
    ]);
    expect(illFormedMessages({ body: { name: 'fine' }, query: {}, params: {}, headers: { host: 'x' } })).toEqual([]);
  });
});
