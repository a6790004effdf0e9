// `--split-delivery-roles`: delivery as one process per role, each watched as
// a group of its own (`delivery-<role>`), so CPU can be told apart by
// provider. Pure arithmetic over those groups' figures.

/** The delivery roles (DELIVERY_ROLES, services/delivery/src/config.ts), in the order the split run starts them. */
export const DELIVERY_ROLES = ['fanout', 'apns', 'fcm', 'webpush', 'hms'] as const;
export type DeliveryRole = (typeof DELIVERY_ROLES)[number];

/** The roles that send, each to the provider of its name. */
export const SENDER_ROLES = ['apns', 'fcm', 'webpush', 'hms'] as const;
export type SenderRole = (typeof SENDER_ROLES)[number];

/** The process group a role's process is watched as. */
export function roleGroup(role: DeliveryRole): `delivery-${DeliveryRole}` {
  return `delivery-${role}`;
}

/**
 * `values` with `delivery` set to `combine` of the role groups' values (pure):
 * a split run has no `delivery` group of its own (a pid is watched in one
 * group), so the delivery figures stay comparable with an unsplit run. A
 * run without role groups is returned as it is.
 */
export function withDeliveryFolded<T extends number | null>(values: Readonly<Record<string, T | undefined>>, combine: (parts: number[]) => number): Record<string, T | undefined> {
  const present = DELIVERY_ROLES.map((role) => values[roleGroup(role)]).filter((value) => value !== undefined);
  if (present.length === 0) return { ...values };
  const known = present.filter((value): value is NonNullable<T> => value !== null) as number[];
  return { ...values, delivery: (known.length === 0 ? null : combine(known)) as T };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * CPU µs per push of each sender role's process over the pushes sent to its
 * provider, for every provider with pushes (null when its process was not
 * measured), and the fan-out process's over all pushes (pure).
 */
export function cpuPerPushByProvider(
  cpuS: Readonly<Record<string, number | undefined>>,
  pushes: Readonly<Partial<Record<SenderRole, number>>>,
): { byProvider: Partial<Record<SenderRole, number | null>>; fanout: number | null } {
  const byProvider: Partial<Record<SenderRole, number | null>> = {};
  let total = 0;
  for (const role of SENDER_ROLES) {
    const count = pushes[role] ?? 0;
    if (count <= 0) continue;
    total += count;
    const seconds = cpuS[roleGroup(role)];
    byProvider[role] = seconds === undefined ? null : round1((seconds * 1e6) / count);
  }
  const fanout = cpuS[roleGroup('fanout')];
  return { byProvider, fanout: fanout === undefined || total === 0 ? null : round1((fanout * 1e6) / total) };
}

/** Pushes per provider: the ledger's when it could be read, else the devices registered for each (a campaign targets every one). */
export function pushesByProvider(registered: Readonly<Record<SenderRole, number>>, ledger: Readonly<Record<string, number>> | undefined): Record<SenderRole, number> {
  if (ledger === undefined) return { ...registered };
  return Object.fromEntries(SENDER_ROLES.map((provider) => [provider, ledger[provider] ?? 0])) as Record<SenderRole, number>;
}
