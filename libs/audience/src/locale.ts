/**
 * A BCP 47 language tag in its canonical form (`fr-ca` → `fr-CA`,
 * `iw` → `he`), or undefined when it is not one (pure). Devices' locales and
 * `{"locale": …}` targets are both kept canonical, so matching compares
 * strings.
 */
export function canonicalLocale(tag: string): string | undefined {
  if (tag.length === 0 || tag.length > 64) return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/**
 * Whether a device's locale falls under a target's (pure): the same tag, or
 * one that starts with the target's subtags (`fr` matches `fr`, `fr-CA`,
 * `fr-Latn-CA`; `fr-CA` does not match `fr`). Both are canonical.
 */
export function localeMatches(deviceLocale: string | undefined, wanted: string): boolean {
  if (deviceLocale === undefined) return false;
  return deviceLocale === wanted || (deviceLocale.length > wanted.length && deviceLocale.startsWith(wanted) && deviceLocale.charCodeAt(wanted.length) === 45);
}
