import { describe, expect, it } from 'vitest';
import { contentTypeOf, resolveInside } from './static-files';
import { cspWithStyleNonce, newStyleNonce, STYLE_NONCE_META, withStyleNonce } from './style-nonce';

describe('resolveInside', () => {
  const root = '/srv/app';
  it('resolves paths inside the root', () => {
    expect(resolveInside(root, '/index.html')).toBe('/srv/app/index.html');
    expect(resolveInside(root, '/assets/a%20b.js')).toBe('/srv/app/assets/a b.js');
  });
  it('refuses every way out of the root', () => {
    for (const bad of [
      '/../etc/passwd',
      '/assets/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc',
      '/a%00b',
      '/%E0%A4%A',
    ]) {
      expect(resolveInside(root, bad), bad).toBeNull();
    }
    expect(resolveInside(root, '/../app-evil/x')).toBeNull();
  });
});

describe('style nonce', () => {
  it("allows only this load's nonce for styles, never inline scripts, and hands it to the page in a meta tag", () => {
    const a = newStyleNonce();
    expect(newStyleNonce()).not.toBe(a);
    const csp = cspWithStyleNonce("script-src 'self'; style-src 'self'; object-src 'none'", a);
    expect(csp).toBe(`script-src 'self'; style-src 'self' 'nonce-${a}'; object-src 'none'`);
    expect(() => cspWithStyleNonce("style-src 'self'", "x' 'unsafe-inline")).toThrow();
    expect(withStyleNonce('<html><head><title>t</title></head></html>', a)).toContain(
      `<meta name="${STYLE_NONCE_META}" content="${a}" />`,
    );
  });
});

describe('contentTypeOf', () => {
  it('types web assets from their own map and images and video from the one media map', () => {
    expect(contentTypeOf('/srv/app/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('/srv/app/assets/a.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('/srv/app/icon.svg')).toBe('image/svg+xml');
    expect(contentTypeOf('/srv/app/logo.PNG')).toBe('image/png');
    expect(contentTypeOf('/srv/app/intro.webm')).toBe('video/webm');
    expect(contentTypeOf('/srv/app/data.bin')).toBe('application/octet-stream');
  });
});
