import { describe, expect, it } from 'vitest';
import { resolveInside } from './static-files';

describe('resolveInside', () => {
  const root = '/srv/app';
  it('resolves paths inside the root', () => {
    expect(resolveInside(root, '/index.html')).toBe('/srv/app/index.html');
    expect(resolveInside(root, '/assets/a%20b.js')).toBe('/srv/app/assets/a b.js');
  });
  it('refuses every way out of the root', () => {
    for (const bad of ['/../etc/passwd', '/assets/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc', '/a%00b', '/%E0%A4%A']) {
      expect(resolveInside(root, bad), bad).toBeNull();
    }
    expect(resolveInside(root, '/../app-evil/x')).toBeNull();
  });
});
