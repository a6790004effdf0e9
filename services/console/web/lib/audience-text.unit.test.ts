import { describe, expect, it } from 'vitest';
import { audienceText } from './audience-text.ts';

describe('audienceText', () => {
  it('says what a target expression means, in a sentence', () => {
    expect(audienceText({ and: [{ platform: 'ios' }, { topic: 'promotions' }, { not: { topic: 'beta' } }] })).toBe('iOS devices in topic promotions, excluding those in topic beta');
    expect(audienceText({ and: [{ topic: 'promotions' }, { metadata: { country: 'US' } }, { not: { metadata: { opted_out: { exists: true } } } }] })).toBe('devices in topic promotions and with country US, excluding those with opted_out set');
    expect(audienceText({ and: [{ locale: 'fr' }, { or: [{ metadata: { tier: { in: ['gold', 'silver'] } } }, 'vip'] }] })).toBe('devices with locale fr and (with tier gold or silver or vip)');
    expect(audienceText({ not: { metadata: { opted_out: { exists: true } } } })).toBe('every device except those with opted_out set');
    expect(audienceText({ and: [{ not: { external_id: 'beta-1' } }] })).toBe('every device except those of user beta-1');
    expect(audienceText({ metadata: { plan: { ne: 'free' }, seen: { exists: false } } })).toBe('devices with plan not free and without seen');
    expect(audienceText({ timezone: 'Europe/Paris' })).toBe('devices in time zone Europe/Paris');
    expect(audienceText({ platform: 'android' })).toBe('Android devices');
    expect(audienceText({ or: [{ topic: 'news' }, { and: [{ platform: 'web' }, { locale: 'de' }] }] })).toBe('devices in topic news or (on web and with locale de)');
    expect(audienceText('news')).toBe('news');
    expect(audienceText({ and: [{ segment: 'us-promos' }, { platform: 'web' }] })).toBe('web devices in segment us-promos');
  });
});
