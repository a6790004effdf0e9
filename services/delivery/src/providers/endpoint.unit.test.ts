import { describe, expect, it } from 'vitest';
import { ConfigError } from '@herald/errors';
import { parseEndpoint } from './endpoint.ts';

describe('parseEndpoint', () => {
  it('reads host and port of an https origin', () => {
    expect(parseEndpoint('https://127.0.0.1:8443', 'APNS_ENDPOINT')).toEqual({ origin: 'https://127.0.0.1:8443', host: '127.0.0.1', port: 8443 });
    expect(parseEndpoint('https://push.staging.example/', 'FCM_ENDPOINT')).toMatchObject({ host: 'push.staging.example', port: 443 });
    expect(parseEndpoint('https://[::1]:9000', 'FCM_ENDPOINT')).toMatchObject({ host: '::1', port: 9000 });
  });

  it.each([
    ['http://127.0.0.1:8443', 'APNS_ENDPOINT must use https'],
    ['https://127.0.0.1:8443/3/device', 'APNS_ENDPOINT must be an origin, without path, query or fragment'],
    ['https://user:pw@127.0.0.1', 'APNS_ENDPOINT must not carry credentials'],
    ['127.0.0.1:8443', 'APNS_ENDPOINT must be a URL like https://127.0.0.1:8443'],
  ])('refuses %s', (value, message) => {
    let error: unknown;
    try {
      parseEndpoint(value, 'APNS_ENDPOINT');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).details).toContain(message);
  });
});
