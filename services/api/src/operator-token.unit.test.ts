import { describe, expect, it } from 'vitest';
import { isOperatorToken } from './operator-token.ts';

const TOKEN = 'op-3f9c1b7e8d2a4c6f0e1d2c3b4a5f6e7d8c9b';

describe('isOperatorToken', () => {
  it('accepts the token as a bearer credential, however Bearer is spelled', () => {
    expect(isOperatorToken(TOKEN, `Bearer ${TOKEN}`)).toBe(true);
    expect(isOperatorToken(TOKEN, `bearer   ${TOKEN}`)).toBe(true);
  });
  it('refuses anything else: no header, another scheme, a prefix, a longer value, a project key', () => {
    for (const header of [undefined, '', TOKEN, `Basic ${TOKEN}`, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`, 'Bearer hk_live_project_key_0123456789abcdef']) {
      expect(isOperatorToken(TOKEN, header), String(header)).toBe(false);
    }
  });
});
