import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { basename, extname, resolve, sep } from 'node:path';
import { mediaTypeOf } from '../../shared/media-types';
import { cspWithStyleNonce, newStyleNonce, withStyleNonce } from './style-nonce';

/**
 * The web assets of the built renderer. Images and video take their type from the one media map (shared/media-types),
 * which holds media only, so the renderer's own asset types (scripts, styles, fonts, icons) stay here.
 */
const WEB_ASSET_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

/** A built file's content type: a web asset's, else a media type, else octet-stream. */
export const contentTypeOf = (file: string): string =>
  WEB_ASSET_TYPES[extname(file)] ?? mediaTypeOf(file) ?? 'application/octet-stream';

/** Resolves a URL path inside root, or null when it would leave it. */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = resolve(root);
  const target = resolve(base, '.' + (decoded.startsWith('/') ? decoded : '/' + decoded));
  return target === base || target.startsWith(base + sep) ? target : null;
}

/** Serves the built renderer; unknown paths fall back to index.html (client-side routes), which gets a fresh style nonce. */
export async function serveStatic(
  root: string,
  urlPath: string,
  res: ServerResponse,
  headers: Record<string, string>,
): Promise<void> {
  const wanted = urlPath === '/' ? '/index.html' : urlPath;
  let file = resolveInside(root, wanted);
  if (!file) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('bad path');
    return;
  }
  let info = await stat(file).catch(() => null);
  if (!info?.isFile()) {
    if (extname(wanted)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    file = resolve(root, 'index.html');
    info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('renderer not built: run `npm run build`');
      return;
    }
  }
  if (basename(file) === 'index.html') {
    const nonce = newStyleNonce();
    const body = withStyleNonce(await readFile(file, 'utf8'), nonce);
    const csp = headers['content-security-policy'];
    res.writeHead(200, {
      ...headers,
      ...(csp ? { 'content-security-policy': cspWithStyleNonce(csp, nonce) } : {}),
      'content-type': contentTypeOf(file),
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
    });
    res.end(body);
    return;
  }
  res.writeHead(200, {
    ...headers,
    'content-type': contentTypeOf(file),
    'content-length': String(info.size),
    'cache-control': 'public, max-age=3600',
  });
  createReadStream(file).pipe(res);
}
