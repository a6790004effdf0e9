/**
 * A target as a plain sentence for a person (pure): what the console shows
 * for a notification's audience and under the audience builder,
 * expressions included ("iOS devices in topic promotions, excluding those
 * in topic beta"). Read loosely: the API's schema types a nested target as
 * unknown (docs/guides/targets.md).
 */
type Loose = Record<string, unknown>;

const PLATFORM_NAMES: Record<string, string> = { ios: 'iOS', android: 'Android', web: 'web', huawei: 'Huawei' };
const isLoose = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const platformName = (platform: string) => PLATFORM_NAMES[platform] ?? platform;

function metadataTest(key: string, test: unknown): string {
  if (typeof test === 'string') return `with ${key} ${test}`;
  const loose = isLoose(test) ? test : {};
  if (Array.isArray(loose.in)) return `with ${key} ${(loose.in as unknown[]).map(String).join(' or ')}`;
  if (typeof loose.exists === 'boolean') return loose.exists ? `with ${key} set` : `without ${key}`;
  if (typeof loose.ne === 'string') return `with ${key} not ${loose.ne}`;
  return `with ${key} ${JSON.stringify(test)}`;
}

/** What a leaf asks of a device, as a phrase that follows "devices" ("in topic promotions"). */
function leafPhrase(loose: Loose): string | undefined {
  if (typeof loose.topic === 'string') return `in topic ${loose.topic}`;
  if (typeof loose.platform === 'string') return `on ${platformName(loose.platform)}`;
  if (typeof loose.segment === 'string') return `in segment ${loose.segment}`;
  if (typeof loose.external_id === 'string') return `of user ${loose.external_id}`;
  if (typeof loose.device_id === 'string') return `with id ${loose.device_id}`;
  if (typeof loose.token === 'string') return `with token ${loose.token.length > 16 ? `${loose.token.slice(0, 12)}…` : loose.token}`;
  if (typeof loose.locale === 'string') return `with locale ${loose.locale}`;
  if (typeof loose.timezone === 'string') return `in time zone ${loose.timezone}`;
  if (isLoose(loose.metadata)) {
    return Object.entries(loose.metadata)
      .map(([key, test]) => metadataTest(key, test))
      .join(' and ');
  }
  return undefined;
}

const parts = (target: Loose, key: 'and' | 'or'): unknown[] => (Array.isArray(target[key]) ? (target[key] as unknown[]) : []);
const isNot = (part: unknown): part is Loose => isLoose(part) && 'not' in part;

/** An AND's parts said as "a and b, excluding those c and d". */
function andPhrase(kept: readonly unknown[], excluded: readonly unknown[]): string {
  const main = kept.map((part) => phrase(part, true)).join(' and ');
  const except = excluded.map((part) => phrase((part as Loose).not, true)).join(' and ');
  if (except === '') return main;
  return main === '' ? `except those ${except}` : `${main}, excluding those ${except}`;
}

/** What a target asks, as a phrase after "devices"; `nested` wraps a compound in parentheses so "a and (b or c)" reads as meant. */
function phrase(target: unknown, nested = false): string {
  if (typeof target === 'string') return target;
  if (!isLoose(target)) return String(target);
  const wrap = (text: string, count: number) => (nested && count > 1 ? `(${text})` : text);
  if (Array.isArray(target.and)) {
    const all = parts(target, 'and');
    return wrap(andPhrase(all.filter((part) => !isNot(part)), all.filter(isNot)), all.length);
  }
  if (Array.isArray(target.or)) return wrap(parts(target, 'or').map((part) => phrase(part, true)).join(' or ') || 'in no group', parts(target, 'or').length);
  if ('not' in target) return `not ${phrase(target.not, true)}`;
  return leafPhrase(target) ?? JSON.stringify(target);
}

export function audienceText(target: unknown): string {
  if (typeof target === 'string') return target;
  if (!isLoose(target)) return String(target);
  if ('not' in target) return `every device except those ${phrase(target.not, true)}`;
  if (typeof target.platform === 'string') return `${platformName(target.platform)} devices`;
  if (Array.isArray(target.or)) return parts(target, 'or').length === 0 ? 'no device' : `devices ${phrase(target)}`;
  if (Array.isArray(target.and)) {
    const all = parts(target, 'and');
    const kept = all.filter((part) => !isNot(part));
    // One platform among the conditions names the devices ("iOS devices in topic promotions").
    const platforms = kept.filter((part) => isLoose(part) && typeof part.platform === 'string' && Object.keys(part).length === 1);
    const noun = platforms.length === 1 ? `${platformName((platforms[0] as Loose).platform as string)} devices` : 'devices';
    const rest = andPhrase(platforms.length === 1 ? kept.filter((part) => part !== platforms[0]) : kept, all.filter(isNot));
    if (rest === '') return all.length === 0 ? 'every device' : noun;
    return rest.startsWith('except') ? `${platforms.length === 1 ? noun : 'every device'} ${rest}` : `${noun} ${rest}`;
  }
  return `devices ${phrase(target)}`;
}
