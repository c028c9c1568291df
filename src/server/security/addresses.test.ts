import { describe, expect, it } from 'vitest';
import { embeddedIpv4, isPrivateAddress } from './addresses';

describe('isPrivateAddress', () => {
  const refused = [
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '240.0.0.1',
    '198.18.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    '::127.0.0.1',
    '[::1]',
    'not-an-ip',
  ];
  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ];
  it.each(refused)('refuses %s', (ip) => expect(isPrivateAddress(ip)).toBe(true));
  it.each(allowed)('allows %s', (ip) => expect(isPrivateAddress(ip)).toBe(false));
  it('reads the IPv4 inside mapped, NAT64 and 6to4 forms', () => {
    expect(embeddedIpv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIpv4('::ffff:c0a8:101')).toBe('192.168.1.1');
    expect(embeddedIpv4('64:ff9b::a00:1')).toBe('10.0.0.1');
    expect(embeddedIpv4('2002:a9fe:a9fe::1')).toBe('169.254.169.254');
    expect(embeddedIpv4('2606:4700::1111')).toBeNull();
  });
});
