import { API_BASE_PATH, DATALAKE_BASE_PATH } from './api-types';

export type LibraryUrlResult = { ok: true; url: string } | { ok: false; error: string };

/**
 * The library's base URL (…/serve/api/v1) from what a user types: the bare origin (`http://host:port`), the base URL
 * itself, or a path prefix a reverse proxy mounts the service under (`https://host/reelsync`), each with or without a
 * trailing slash. Used by the command line (--server, REELSYNC_SERVER) and the Settings field alike.
 */
export function parseLibraryBaseUrl(input: string): LibraryUrlResult {
  const text = input.trim();
  if (!URL.canParse(text))
    return {
      ok: false,
      error: `${JSON.stringify(input)} is not a URL: give the library's address, e.g. http://127.0.0.1:8080`,
    };
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {
      ok: false,
      error: `the library address must start with http:// or https:// (read ${url.protocol} as its scheme)`,
    };
  if (url.search || url.hash) return { ok: false, error: 'the library address takes no ?query or #fragment' };
  if (url.username || url.password)
    return { ok: false, error: 'the library address takes no user name or password (the key goes in its own field)' };
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(API_BASE_PATH)) return { ok: true, url: `${url.origin}${path}` };
  const other = /\/serve\/(?:api\/v\d+|datalake\/v\d+|api|datalake)$/.exec(path);
  if (other) {
    const what = other[0].includes('/datalake')
      ? `the datalake interface (${DATALAKE_BASE_PATH})`
      : 'another version of the library API';
    return {
      ok: false,
      error: `${path} is ${what}: give the library's origin (http://host:port) or its base URL ending in ${API_BASE_PATH}`,
    };
  }
  return { ok: true, url: `${url.origin}${path}${API_BASE_PATH}` };
}

/** parseLibraryBaseUrl, throwing its message. */
export function normalizeLibraryBaseUrl(input: string): string {
  const result = parseLibraryBaseUrl(input);
  if (!result.ok) throw new Error(result.error);
  return result.url;
}
