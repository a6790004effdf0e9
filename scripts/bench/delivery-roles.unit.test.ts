import { describe, expect, it } from 'vitest';
import type { DeliveryLedgerDocument } from '@herald/read-models';
import { cpuPerPushByProvider, pushesByProvider, roleGroup, withDeliveryFolded } from './delivery-roles.ts';
import { sentByProvider } from './ledger.ts';

describe('withDeliveryFolded', () => {
  it('sets delivery to the role groups combined, and leaves a run without them as it is', () => {
    const cpu = { api: 0.1, 'delivery-fanout': 0.2, 'delivery-apns': 0.3, 'delivery-hms': 0.05 };
    expect(withDeliveryFolded(cpu, (parts) => parts.reduce((a, b) => a + b, 0)).delivery).toBeCloseTo(0.55, 10);
    expect(withDeliveryFolded({ 'delivery-fanout': 300, 'delivery-fcm': 500 }, (parts) => Math.max(...parts)).delivery).toBe(500);
    expect(withDeliveryFolded({ api: 1, delivery: 2 }, () => 99)).toEqual({ api: 1, delivery: 2 });
    expect(withDeliveryFolded({ 'delivery-apns': null }, () => 99).delivery).toBeNull();
  });
});

describe('cpuPerPushByProvider', () => {
  it('divides each sender process by its provider’s pushes and the fan-out by all of them', () => {
    const cpuS = { [roleGroup('fanout')]: 0.3, [roleGroup('apns')]: 0.1, [roleGroup('fcm')]: 0.2, [roleGroup('webpush')]: 0.6, [roleGroup('hms')]: 0.01 };
    const figures = cpuPerPushByProvider(cpuS, { apns: 1000, fcm: 1000, webpush: 1000, hms: 0 });
    // hms sent nothing: not a provider of this run.
    expect(figures.byProvider).toEqual({ apns: 100, fcm: 200, webpush: 600 });
    expect(figures.fanout).toBe(100);
  });

  it('gives null for a provider whose process was not measured, and for the fan-out without pushes', () => {
    expect(cpuPerPushByProvider({ [roleGroup('apns')]: 0.0123 }, { apns: 3, fcm: 7 })).toEqual({ byProvider: { apns: 4100, fcm: null }, fanout: null });
    expect(cpuPerPushByProvider({ [roleGroup('fanout')]: 1 }, {})).toEqual({ byProvider: {}, fanout: null });
  });
});

describe('pushesByProvider', () => {
  it('takes the ledger’s counts when read, else the registered devices', () => {
    const registered = { apns: 10, fcm: 20, webpush: 5, hms: 0 };
    expect(pushesByProvider(registered, undefined)).toEqual(registered);
    expect(pushesByProvider(registered, { apns: 9, fcm: 20, webpush: 5 })).toEqual({ apns: 9, fcm: 20, webpush: 5, hms: 0 });
  });
});

describe('sentByProvider', () => {
  it('counts the devices handed to each provider, by the batches’ provider', () => {
    const batch = (provider: string, outcomes: string[]) => ({ provider, devices: outcomes.map((outcome, i) => ({ device_id: `${provider}-${i}`, outcome })) }) as unknown as DeliveryLedgerDocument;
    const docs = [batch('apns', ['delivered', 'delivered', 'invalid']), batch('fcm', ['delivered', 'cancelled']), batch('apns', ['failed'])];
    expect(sentByProvider(docs)).toEqual({ apns: 4, fcm: 1 });
  });
});
