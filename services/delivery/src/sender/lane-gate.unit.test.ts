import { describe, expect, it } from 'vitest';
import { LaneGate } from './lane-gate.ts';

describe('LaneGate', () => {
  it('lets campaign calls go at once while no express call is in flight', async () => {
    const gate = new LaneGate(60_000);
    expect(await gate.campaign(async () => 'sent')).toBe('sent');
  });

  it('holds a campaign call until the express calls in flight are done', async () => {
    const gate = new LaneGate(60_000);
    const order: string[] = [];
    const express = Promise.withResolvers<void>();
    const urgent = gate.express(async () => {
      await express.promise;
      order.push('express');
    });
    expect(gate.expressInFlight).toBe(1);
    const campaign = gate.campaign(async () => void order.push('campaign'));
    await Promise.resolve();
    expect(order).toEqual([]);
    express.resolve();
    await Promise.all([urgent, campaign]);
    expect(order).toEqual(['express', 'campaign']);
    expect(gate.expressInFlight).toBe(0);
  });

  it('lets a campaign call go after its longest wait even while express calls keep coming (slowed, never stopped)', async () => {
    const gate = new LaneGate(20);
    const never = Promise.withResolvers<void>();
    void gate.express(() => never.promise);
    expect(await gate.campaign(async () => 'sent anyway')).toBe('sent anyway');
    never.resolve();
  });

  it('counts an express call that fails as done', async () => {
    const gate = new LaneGate(60_000);
    await expect(gate.express(async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(gate.expressInFlight).toBe(0);
  });
});
