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
    ['2002:a9fe:a9fe::1', '6to4'],
  ])('refuses %s (%s)', (address, range) => {
    expect(classifyAddress(address, false)).toEqual({ allowed: false, range });
  });

  it('allows public unicast, IPv4 and IPv6', () => {
    expect(classifyAddress('93.184.216.34', false)).toEqual({ allowed: true });
    expect(classifyAddress('2606:2800:220:1:248:1893:25c8:1946', false)).toEqual({ allowed: true });
  });

  it('allows loopback only in local mode, and never private or link-local', () => {
    expect(classifyAddress('127.0.0.1', true)).toEqual({ allowed: true });
    expect(classifyAddress('::1', true)).toEqual({ allowed: true });
    expect(classifyAddress('169.254.169.254', true).allowed).toBe(false);
    expect(classifyAddress('10.0.0.1', true).allowed).toBe(false);
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
