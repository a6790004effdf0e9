import { describe, expect, it } from 'vitest';
import { ConfigError } from '@herald/errors';
import { rolesOf } from './config.ts';

describe('rolesOf', () => {
  it('reads the delivery roles, each once', () => {
    expect(rolesOf('fanout,apns,fcm')).toEqual(['fanout', 'apns', 'fcm']);
    expect(rolesOf('apns,apns')).toEqual(['apns']);
  });

  it('refuses webhooks, naming the service that sends them now', () => {
    expect(() => rolesOf('fanout,apns,fcm,webhooks')).toThrow(ConfigError);
    expect(() => rolesOf('fanout,apns,fcm,webhooks')).toThrow(/webhooks is no longer a delivery role: .*services\/webhooks/);
  });

  it('names every word that is not a role', () => {
    expect(() => rolesOf('fanout,mail,sms')).toThrow('DELIVERY_ROLES: mail is not a delivery role (fanout, apns, fcm, webpush, hms); DELIVERY_ROLES: sms is not a delivery role (fanout, apns, fcm, webpush, hms)');
  });
});
