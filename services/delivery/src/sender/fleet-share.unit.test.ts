import { describe, expect, it } from 'vitest';
import { heldShare, ProviderShares } from './fleet-share.ts';

describe('heldShare', () => {
  it('is the fraction of partitions held, at least one partition, at most all', () => {
    expect(heldShare(6, 6)).toBe(1);
    expect(heldShare(2, 6)).toBeCloseTo(1 / 3);
    expect(heldShare(0, 6)).toBeCloseTo(1 / 6);
    expect(heldShare(3, 0)).toBe(1);
  });
});

describe('ProviderShares', () => {
  it("takes the largest of a provider's lanes, read when asked, and 1 for a provider no lane tracks", () => {
    const shares = new ProviderShares();
    const campaign = new Set([0, 1]);
    const express = new Set([4]);
    shares.track('apns', () => heldShare(campaign.size, 6));
    shares.track('apns', () => heldShare(express.size, 6));
    expect(shares.of('apns')).toBeCloseTo(2 / 6);
    // A rebalance: the process now holds more of the express lane.
    express.add(5).add(3);
    expect(shares.of('apns')).toBeCloseTo(3 / 6);
    expect(shares.of('fcm')).toBe(1);
  });
});
