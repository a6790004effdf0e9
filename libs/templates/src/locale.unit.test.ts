import { describe, expect, it } from 'vitest';
import { isLocaleTag, pickLocale } from './locale.ts';

describe('pickLocale', () => {
  const keys = ['default', 'fr', 'fr-CA', 'pt-BR', 'zh-Hant'];

  it('takes the exact locale first', () => {
    expect(pickLocale(keys, 'fr-CA')).toBe('fr-CA');
    expect(pickLocale(keys, 'fr')).toBe('fr');
  });

  it('falls back by dropping the last subtag: fr-BE → fr, zh-Hant-TW → zh-Hant', () => {
    expect(pickLocale(keys, 'fr-BE')).toBe('fr');
    expect(pickLocale(keys, 'zh-Hant-TW')).toBe('zh-Hant');
  });

  it('falls back to default when no prefix is a locale of the template (pt without pt-BR is not taken for pt-BR)', () => {
    expect(pickLocale(keys, 'de-DE')).toBe('default');
    expect(pickLocale(keys, 'pt')).toBe('default');
    expect(pickLocale(keys, 'pt-PT')).toBe('default');
  });

  it('ignores case and reads _ as - (devices report both), answering the key as the template spells it', () => {
    expect(pickLocale(keys, 'FR_ca')).toBe('fr-CA');
    expect(pickLocale(keys, 'pt_br')).toBe('pt-BR');
  });

  it('gives default to a device without a locale or with one that is not a tag', () => {
    expect(pickLocale(keys, undefined)).toBe('default');
    expect(pickLocale(keys, '')).toBe('default');
    expect(pickLocale(keys, 'français')).toBe('default');
    expect(pickLocale(keys, 'default')).toBe('default');
  });
});

describe('isLocaleTag', () => {
  it('accepts language and subtags, refuses anything else', () => {
    for (const tag of ['fr', 'fr-CA', 'zh-Hant-TW', 'es-419', 'fil']) expect(isLocaleTag(tag)).toBe(true);
    for (const tag of ['', 'f', 'french', 'fr-', 'fr CA', '../x', 'x'.repeat(40)]) expect(isLocaleTag(tag)).toBe(false);
  });
});
