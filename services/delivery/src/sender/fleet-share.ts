/**
 * What one delivery process takes of a budget set for the whole fleet (a
 * notification's pace, a project's budget per second, a provider
 * credential's in-flight window): the fraction of a lane's partitions it
 * holds, at least one partition's (a process between assignments still
 * sends what it has in hand).
 */
export function heldShare(heldPartitions: number, partitions: number): number {
  return Math.min(1, Math.max(1, heldPartitions) / Math.max(1, partitions));
}

type Provider = 'apns' | 'fcm';

/**
 * Each provider's share for this process: the largest share it holds of
 * that provider's lanes (campaign, express), read when asked, so a
 * rebalance changes it at once. 1 for a provider no lane tracks.
 */
export class ProviderShares {
  readonly #lanes = new Map<Provider, Array<() => number>>();

  track(provider: Provider, share: () => number): void {
    const lanes = this.#lanes.get(provider) ?? [];
    lanes.push(share);
    this.#lanes.set(provider, lanes);
  }

  of(provider: Provider): number {
    const lanes = this.#lanes.get(provider);
    if (lanes === undefined) return 1;
    let largest = 0;
    for (const share of lanes) largest = Math.max(largest, share());
    return largest;
  }
}
