import { describe, expect, it } from 'vitest';
import { parseLibraryBaseUrl } from './library-url';

describe('parseLibraryBaseUrl', () => {
  it('turns an origin, a base URL or a proxy prefix into the base URL', () => {
    for (const [input, url] of [
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/serve/api/v1'],
      [' http://127.0.0.1:8080/ ', 'http://127.0.0.1:8080/serve/api/v1'],
      ['http://127.0.0.1:8080/serve/api/v1', 'http://127.0.0.1:8080/serve/api/v1'],
      ['https://lib.example.com/serve/api/v1/', 'https://lib.example.com/serve/api/v1'],
      ['https://example.com/reelsync', 'https://example.com/reelsync/serve/api/v1'],
      ['https://example.com/reelsync/serve/api/v1', 'https://example.com/reelsync/serve/api/v1'],
      ['http://[::1]:9000', 'http://[::1]:9000/serve/api/v1'],
    ]) {
      expect(parseLibraryBaseUrl(input!), input).toEqual({ ok: true, url });
    }
  });

  it('refuses what is not the library address, saying why', () => {
    for (const [input, error] of [
      ['localhost:8080', /must start with http:\/\/ or https/],
      ['not a url', /is not a URL/],
      ['ftp://host/', /read ftp: as its scheme/],
      ['http://host/serve/datalake/v1', /datalake interface/],
      ['http://host/serve/api/v2', /another version of the library API/],
      ['http://host/?key=1', /no \?query/],
      ['http://me:pw@host/', /no user name or password/],
    ] as const) {
      const result = parseLibraryBaseUrl(input);
      expect(result.ok, input).toBe(false);
      if (!result.ok) expect(result.error).toMatch(error);
    }
  });
});
