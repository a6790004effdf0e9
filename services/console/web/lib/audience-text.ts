/**
 * A target as a plain sentence for a person (pure): what the console shows
 * for a notification's audience, expressions included ("platform iOS and in
 * topic promotions, excluding user beta-1"). Read loosely: the API's
 * schema types a nested target as unknown (docs/guides/targets.md).
 */
type Loose = Record<string, unknown>;

const PLATFORM_NAMES: Record<string, string> = { ios: 'iOS', android: 'Android', web: 'web' };

function metadataTest(key: string, test: unknown): string {
  if (typeof test === 'string') return `${key} is ${test}`;
  const loose = (test ?? {}) as Loose;
  if (Array.isArray(loose.in)) return `${key} is ${(loose.in as unknown[]).map(String).join(' or ')}`;
  if (typeof loose.exists === 'boolean') return loose.exists ? `${key} is set` : `${key} is not set`;
  if (typeof loose.ne === 'string') return `${key} is not ${loose.ne}`;
  return `${key} ${JSON.stringify(test)}`;
}

/** Wraps a part made of several clauses, so "a and (b or c)" reads as meant. */
const grouped = (target: unknown): string => {
  const text = audienceText(target);
  const loose = target as Loose | null;
  const compound = typeof loose === 'object' && loose !== null && (Array.isArray(loose.and) || Array.isArray(loose.or)) && ((loose.and ?? loose.or) as unknown[]).length > 1;
  return compound ? `(${text})` : text;
};

export function audienceText(target: unknown): string {
  if (typeof target === 'string') return target;
  if (typeof target !== 'object' || target === null) return String(target);
  const loose = target as Loose;
  if (Array.isArray(loose.and)) {
    const parts = loose.and as unknown[];
    const kept = parts.filter((part) => !(typeof part === 'object' && part !== null && 'not' in part));
    const excluded = parts.filter((part) => typeof part === 'object' && part !== null && 'not' in part).map((part) => grouped((part as Loose).not));
    const main = kept.map(grouped).join(' and ') || 'every device';
    return excluded.length === 0 ? main : `${main}, excluding ${excluded.join(' and ')}`;
  }
  if (Array.isArray(loose.or)) return (loose.or as unknown[]).map(grouped).join(' or ') || 'no device';
  if ('not' in loose) return `every device except ${grouped(loose.not)}`;
  if (typeof loose.topic === 'string') return `in topic ${loose.topic}`;
  if (typeof loose.device_id === 'string') return `device ${loose.device_id}`;
  if (typeof loose.token === 'string') return `token ${loose.token.length > 16 ? `${loose.token.slice(0, 12)}…` : loose.token}`;
  if (typeof loose.external_id === 'string') return `user ${loose.external_id}`;
  if (typeof loose.platform === 'string') return `platform ${PLATFORM_NAMES[loose.platform] ?? loose.platform}`;
  if (typeof loose.locale === 'string') return `locale ${loose.locale}`;
  if (typeof loose.timezone === 'string') return `time zone ${loose.timezone}`;
  if (typeof loose.segment === 'string') return `segment ${loose.segment}`;
  if (typeof loose.metadata === 'object' && loose.metadata !== null) {
    return Object.entries(loose.metadata as Loose)
      .map(([key, test]) => metadataTest(key, test))
      .join(' and ');
  }
  return JSON.stringify(target);
}
