import { describe, expect, it } from 'vitest';
import { reasonMeaning } from './reasons.ts';

describe('reasonMeaning', () => {
  it('says what a missing web subscription or Huawei credential means and how to fix it', () => {
    expect(reasonMeaning('SubscriptionUnknown')).toMatch(/no stored Web Push subscription/);
    expect(reasonMeaning('NoHmsCredentials')).toMatch(/herald providers hms/);
    expect(reasonMeaning('NoApnsCredentials')).toMatch(/herald providers apns/);
  });

  it('reads a bare HTTP status, and admits what it does not know', () => {
    expect(reasonMeaning('HTTP 502')).toBe('The provider answered 502 without a reason.');
    expect(reasonMeaning('SomethingNew')).toMatch(/does not describe/);
  });
});
