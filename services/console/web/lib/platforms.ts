/** Device platforms as the API names them. */
export const PLATFORMS = ['ios', 'android', 'web', 'huawei'] as const;
export type Platform = (typeof PLATFORMS)[number];

const NAMES: Readonly<Record<Platform, { name: string; provider: string }>> = {
  ios: { name: 'iOS', provider: 'APNs' },
  android: { name: 'Android', provider: 'FCM' },
  web: { name: 'Web', provider: 'Web Push' },
  huawei: { name: 'Huawei', provider: 'Push Kit' },
};

/** A platform for a person (pure): `iOS`, or with its provider `iOS (APNs)`; an unknown word as it is. */
export function platformLabel(platform: string, withProvider = false): string {
  const known = NAMES[platform as Platform] as { name: string; provider: string } | undefined;
  if (known === undefined) return platform;
  return withProvider ? `${known.name} (${known.provider})` : known.name;
}

/** The platform a console address asks for, or undefined for any (pure). */
export function platformParam(value: string | undefined): Platform | undefined {
  return (PLATFORMS as readonly string[]).includes(value ?? '') ? (value as Platform) : undefined;
}

/**
 * An audience count by platform as people read it (pure): iOS and Android
 * always, Web and Huawei only when the audience has some, so a project
 * without browsers or Huawei devices reads as before: "iOS 3, Android 1".
 */
export function platformCountsText(byPlatform: Readonly<Record<string, number | undefined>>, format: (count: number) => string = String): string {
  return PLATFORMS.filter((platform) => platform === 'ios' || platform === 'android' || (byPlatform[platform] ?? 0) > 0)
    .map((platform) => `${platformLabel(platform)} ${format(byPlatform[platform] ?? 0)}`)
    .join(', ');
}
