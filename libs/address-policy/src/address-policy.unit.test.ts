import { describe, expect, it } from 'vitest';
import { classifyAddress, ipLiteral } from './address-policy.ts';

describe('classifyAddress', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::', 'unspecified'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:10.0.0.1', 'private'],
    // IPv6 forms that embed an IPv4 address are judged as that address (issue 44, item 7).
    ['::7f00:1', 'loopback'],
    ['::a9fe:a9fe', 'linkLocal'],
    ['::10.0.0.1', 'private'],
    ['::0.0.0.2', 'unspecified'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    ['::ffff:0:a9fe:a9fe', 'linkLocal'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:a9fe:a9fe::1', 'linkLocal'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101:1::1', 'private'],
    // Not global unicast at all.
    ['64:ff9b:1::a9fe:a9fe', 'rfc6052'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:db8::1', 'reserved'],
    ['4000::1', 'not global unicast'],
    ['100::1', 'discard'],
  ])('refuses %s (%s)', (address, range) => {
    expect(classifyAddress(address, false)).toEqual({ allowed: false, range });
  });

  it('allows public unicast, IPv4 and IPv6, and IPv6 forms embedding a public IPv4 address', () => {
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34', '::5db8:d822', '64:ff9b::5db8:d822', '2002:5db8:d822::1']) {
      expect({ address, verdict: classifyAddress(address, false) }).toEqual({ address, verdict: { allowed: true } });
    }
  });

  it('allows loopback only in local mode, and never private or link-local', () => {
    expect(classifyAddress('127.0.0.1', true)).toEqual({ allowed: true });
    expect(classifyAddress('::1', true)).toEqual({ allowed: true });
    expect(classifyAddress('169.254.169.254', true).allowed).toBe(false);
    expect(classifyAddress('10.0.0.1', true).allowed).toBe(false);
    expect(classifyAddress('::ffff:127.0.0.1', true)).toEqual({ allowed: true });
  });

  it('in local mode too, refuses loopback reached through a translating form (it is not this host)', () => {
    for (const address of ['::7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::1', '::ffff:0:7f00:1']) {
      expect({ address, verdict: classifyAddress(address, true) }).toEqual({ address, verdict: { allowed: false, range: 'loopback' } });
    }
  });

  it('refuses what is not an address', () => {
    expect(classifyAddress('example.com', false)).toEqual({ allowed: false, range: 'not an IP address' });
  });
});

describe('ipLiteral', () => {
  it('finds IP literals (bracketed IPv6 too) and leaves names alone', () => {
    expect(ipLiteral('127.0.0.1')).toBe('127.0.0.1');
    expect(ipLiteral('[::1]')).toBe('::1');
    expect(ipLiteral('hooks.example.com')).toBeUndefined();
    // Short and octal forms are not "four-part decimal": they go through the resolver, which normalises them.
    expect(ipLiteral('0x7f.1')).toBeUndefined();
  });
});
