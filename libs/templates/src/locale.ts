import { DEFAULT_LOCALE } from './content.ts';

/**
 * A locale tag as Herald accepts it: a language (2–3 letters) and optional
 * subtags (`fr`, `fr-CA`, `zh-Hant-TW`), BCP 47's common shape. Matching
 * ignores case and takes `_` for `-` (`fr_ca` is `fr-CA`), as devices report
 * both.
 */
export const LOCALE_PATTERN = '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$';
const LOCALE = new RegExp(LOCALE_PATTERN);

export function isLocaleTag(value: string): boolean {
  return value.length <= 35 && LOCALE.test(value);
}

/** The canonical form of a tag: lower-case, `-` between subtags (comparison only; content keys keep the client's spelling). */
export function normaliseLocale(tag: string): string {
  return tag.replaceAll('_', '-').toLowerCase();
}

/**
 * Which of a template's locales a device gets (pure): its own locale, then
 * that locale less its last subtag, and so on (`zh-Hant-TW` → `zh-Hant` →
 * `zh`), then `default`. A device with no locale (or none Herald can read)
 * gets `default`. `available` holds the template's locale keys; the key
 * returned is one of them, as spelled there.
 */
export function pickLocale(available: readonly string[], deviceLocale: string | undefined): string {
  if (deviceLocale === undefined || !isLocaleTag(deviceLocale)) return DEFAULT_LOCALE;
  const byNormal = new Map(available.filter((key) => key !== DEFAULT_LOCALE).map((key) => [normaliseLocale(key), key]));
  const parts = normaliseLocale(deviceLocale).split('-');
  for (let length = parts.length; length > 0; length -= 1) {
    const found = byNormal.get(parts.slice(0, length).join('-'));
    if (found !== undefined) return found;
  }
  return DEFAULT_LOCALE;
}
