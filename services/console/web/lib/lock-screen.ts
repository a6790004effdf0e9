/**
 * How much of a title and body a lock screen shows, per platform, before it
 * cuts with "…". Approximate (fonts, device width and the OS version move it
 * by a few characters): iOS shows one line of title and about four of body;
 * Android one line of title, one line of body collapsed and about six when
 * expanded; desktop Chrome about two lines of body. Huawei's EMUI lays a
 * notification out as Android does, in a slightly larger default font: the
 * Android figures less about a tenth (an estimate from the layout, not
 * measured on a device).
 */
export const PLATFORM_LIMITS = {
  ios: { label: 'iOS', title: 50, body: 178 },
  android: { label: 'Android', title: 65, body: 240, collapsedBody: 45 },
  web: { label: 'Web (Chrome)', title: 50, body: 120 },
  huawei: { label: 'Huawei (EMUI)', title: 58, body: 216, collapsedBody: 40 },
} as const;

export type Platform = keyof typeof PLATFORM_LIMITS;

/** In the order the previews show them. */
const ALL_PLATFORMS = Object.keys(PLATFORM_LIMITS) as Platform[];

/**
 * The platforms a send reaches, from the audience count by platform: those
 * with a device. iOS and Android while it is not counted, or counts none,
 * so the preview still shows the common case.
 */
export function platformsReached(byPlatform: Readonly<Record<string, number | undefined>> | undefined): Platform[] {
  const present = ALL_PLATFORMS.filter((platform) => (byPlatform?.[platform] ?? 0) > 0);
  return present.length === 0 ? ['ios', 'android'] : present;
}

export interface Shown {
  text: string;
  /** Characters the person typed (by code point, as people count them). */
  length: number;
  limit: number;
  cut: boolean;
}

/** `text` as a lock screen with room for `limit` characters shows it: whole, or cut at a word where one is near, with "…". */
export function shown(text: string, limit: number): Shown {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  if (chars.length <= limit) return { text: chars.join(''), length: chars.length, limit, cut: false };
  const head = chars.slice(0, limit - 1).join('');
  const space = head.lastIndexOf(' ');
  const cutAt = space >= limit * 0.7 ? head.slice(0, space) : head;
  return { text: `${cutAt.trimEnd()}…`, length: chars.length, limit, cut: true };
}

export interface LockScreen {
  platform: Platform;
  label: string;
  title: Shown;
  body: Shown;
  /** Android and EMUI: the one line shown before the notification is expanded. */
  collapsed?: Shown;
}

/** The lock-screen rendering of a title and body on each platform asked for. */
export function lockScreens(title: string, body: string, platforms: readonly Platform[]): LockScreen[] {
  return platforms.map((platform) => {
    const limits = PLATFORM_LIMITS[platform];
    return {
      platform,
      label: limits.label,
      title: shown(title, limits.title),
      body: shown(body, limits.body),
      ...('collapsedBody' in limits ? { collapsed: shown(body, limits.collapsedBody) } : {}),
    };
  });
}

/** One hint per field: its length and where it is cut ("62 characters: cut on iOS (50) and Web (50)"). */
export function lengthHint(screens: readonly LockScreen[], field: 'title' | 'body'): string {
  const first = screens[0];
  if (first === undefined) return '';
  const count = first[field].length;
  const cutOn = screens.filter((screen) => screen[field].cut).map((screen) => `${screen.label} (${screen[field].limit})`);
  const noun = `${count} character${count === 1 ? '' : 's'}`;
  return cutOn.length === 0 ? `${noun}: shown whole everywhere` : `${noun}: cut on ${new Intl.ListFormat('en', { type: 'conjunction' }).format(cutOn)}`;
}
