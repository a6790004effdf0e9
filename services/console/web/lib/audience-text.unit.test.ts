import { describe, expect, it } from 'vitest';
import { audienceText } from './audience-text.ts';

describe('audienceText', () => {
  it('says what a target expression means, in a sentence', () => {
    expect(audienceText({ and: [{ platform: 'ios' }, { topic: 'promotions' }, { not: { external_id: 'beta-1' } }] })).toBe('platform iOS and in topic promotions, excluding user beta-1');
    expect(audienceText({ and: [{ topic: 'promotions' }, { metadata: { country: 'US' } }] })).toBe('in topic promotions and country is US');
    expect(audienceText({ and: [{ locale: 'fr' }, { or: [{ metadata: { tier: { in: ['gold', 'silver'] } } }, 'vip'] }] })).toBe('locale fr and (tier is gold or silver or vip)');
    expect(audienceText({ not: { metadata: { opted_out: { exists: true } } } })).toBe('every device except opted_out is set');
    expect(audienceText({ metadata: { plan: { ne: 'free' }, seen: { exists: false } } })).toBe('plan is not free and seen is not set');
    expect(audienceText({ timezone: 'Europe/Paris' })).toBe('time zone Europe/Paris');
    expect(audienceText('news')).toBe('news');
    expect(audienceText({ and: [{ segment: 'us-promos' }, { platform: 'web' }] })).toBe('segment us-promos and platform web');
  });
});
