import { describe, expect, it } from 'vitest';
import { exposureWarning, isLoopbackHost, parseConfig } from './config';

describe('network.allowPrivateTargets follows the listen address unless set', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', 'localhost'])(
    '%s is loopback: default true, no warning',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
      const config = parseConfig({}, { host });
      expect(config.network.allowPrivateTargets).toBe(true);
      expect(exposureWarning(config, { host })).toBeNull();
    },
  );

  it.each([
    '0.0.0.0',
    '::',
    '[::]',
    '192.168.1.10',
    '10.0.0.2',
    'fe80::1',
    '::ffff:127.0.0.1',
    'example.lan',
    'localhost.example.com',
  ])('%s is not: default false, explicit true warns', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
    expect(parseConfig({}, { host }).network.allowPrivateTargets).toBe(false);
    expect(exposureWarning(parseConfig({}, { host }), { host })).toBeNull();
    const open = parseConfig({ network: { allowPrivateTargets: true } }, { host });
    expect(open.network.allowPrivateTargets).toBe(true);
    expect(exposureWarning(open, { host })).toMatch(
      new RegExp(`^listening on ${host.replace(/[.[\]]/g, '\\$&')} with network.allowPrivateTargets true`),
    );
  });

  it('an explicit false stays false on loopback', () => {
    expect(
      parseConfig({ network: { allowPrivateTargets: false } }, { host: '127.0.0.1' }).network.allowPrivateTargets,
    ).toBe(false);
  });
});
