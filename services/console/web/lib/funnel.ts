export interface FunnelCounts {
  targeted: number;
  sent: number;
  delivered: number;
  failed: number;
  invalid: number;
  cancelled: number;
  opened: number;
  /** Not sent: `max_duration` ran out; a frequency cap dropped it; held by a cap or quiet hours for now (campaign control). */
  expired?: number;
  capped?: number;
  deferred?: number;
}

/** Outcomes of campaign control, shown only when a notification has some. */
export const HELD_OUTCOMES = ['expired', 'capped', 'deferred'] as const;

/** Every provider a notification's counts can name, in the funnel's order. */
export const PROVIDERS = [
  { key: 'apns', label: 'APNs (iOS)' },
  { key: 'fcm', label: 'FCM (Android)' },
  { key: 'webpush', label: 'Web Push (browsers)' },
  { key: 'hms', label: 'Push Kit (Huawei)' },
] as const;
export type ProviderKey = (typeof PROVIDERS)[number]['key'];

/**
 * The providers a notification's per-provider counts hold, in order (pure):
 * APNs and FCM always, Web Push and Push Kit once it targeted such a device
 * (the API leaves them out before).
 */
export function providerRows<T>(byProvider: Partial<Record<ProviderKey, T>>): Array<{ key: ProviderKey; label: string; counts: T }> {
  return PROVIDERS.flatMap((provider) => {
    const counts = byProvider[provider.key];
    return counts === undefined ? [] : [{ key: provider.key, label: provider.label, counts }];
  });
}

export const FUNNEL_STEPS = ['targeted', 'sent', 'delivered', 'opened'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

/** Devices with an outcome: delivered, failed, invalid, cancelled, expired or capped (a deferred one has none yet). */
export const settled = (counts: FunnelCounts): number => counts.delivered + counts.failed + counts.invalid + counts.cancelled + (counts.expired ?? 0) + (counts.capped ?? 0);

/** Share of the targeted devices that have an outcome (0 … 1); 0 before the audience is known. */
export function progress(counts: FunnelCounts): number {
  return counts.targeted === 0 ? 0 : Math.min(1, settled(counts) / counts.targeted);
}

export interface TimelinePoint {
  at: string;
  delivered: number;
  failed: number;
  invalid: number;
  cancelled: number;
  opened: number;
}

export interface RunningTotal {
  at: number;
  delivered: number;
  notDelivered: number;
  opened: number;
}

/**
 * Running totals over time (buckets of any span add up the same way), for
 * the progress and opens charts: from zero at `from` (the dispatch) to the
 * last totals at `until` (the end, or now), when those widen the range.
 */
export function cumulative(timeline: readonly TimelinePoint[], from?: number, until?: number): RunningTotal[] {
  let delivered = 0;
  let notDelivered = 0;
  let opened = 0;
  const points = [...timeline]
    .sort((a, b) => a.at.localeCompare(b.at))
    .map((point) => {
      delivered += point.delivered;
      notDelivered += point.failed + point.invalid + point.cancelled;
      opened += point.opened;
      // A bucket starts on the minute (or hour): never before the dispatch it follows.
      return { at: Math.max(Date.parse(point.at), from ?? Number.NEGATIVE_INFINITY), delivered, notDelivered, opened };
    });
  const first = points[0];
  const last = points.at(-1);
  if (first === undefined || last === undefined) return points;
  return [
    ...(from !== undefined ? [{ at: from, delivered: 0, notDelivered: 0, opened: 0 }] : []),
    ...points,
    ...(until !== undefined && until > last.at ? [{ ...last, at: until }] : []),
  ];
}
