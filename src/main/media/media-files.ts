import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { parseByteRange } from '../../shared/byte-range';
import { mediaTypeOf } from '../../shared/media-types';

export interface MediaAnswer {
  status: number;
  headers: Record<string, string>;
  /** null for HEAD answers and errors. */
  body: Readable | null;
  /** For errors: why (plain text). */
  message?: string;
}

export function mediaType(path: string): string {
  return mediaTypeOf(path) ?? 'application/octet-stream';
}

/** True when `target` (already real) lies inside one of `roots` (resolved to their real paths). */
export async function insideRoots(target: string, roots: string[]): Promise<boolean> {
  for (const root of roots) {
    const real = await realpath(root).catch(() => null);
    if (!real) continue;
    if (target === real || target.startsWith(real.endsWith(sep) ? real : real + sep)) return true;
  }
  return false;
}

/**
 * Serves a local media file with Range support, refusing anything outside the allowed roots (the watched folders and
 * the library's own folders). Symlinks are resolved before the check, so a link cannot lead out of a root.
 */
export async function serveLocalMedia(
  path: string,
  roots: string[],
  method: 'GET' | 'HEAD',
  rangeHeader: string | undefined,
): Promise<MediaAnswer> {
  const refuse = (status: number, message: string): MediaAnswer => ({
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: null,
    message,
  });
  if (!path || !isAbsolute(path) || path.includes('\0')) return refuse(400, 'an absolute path is required');
  if (!mediaTypeOf(path)) return refuse(403, 'not a media file');
  const real = await realpath(resolve(path)).catch(() => null);
  if (!real) return refuse(404, 'no such file');
  if (!(await insideRoots(real, roots))) return refuse(403, 'outside the library folders');
  const info = await stat(real).catch(() => null);
  if (!info?.isFile()) return refuse(404, 'no such file');
  const base = { 'content-type': mediaType(real), 'accept-ranges': 'bytes', 'cache-control': 'no-store' };
  const range = parseByteRange(rangeHeader, info.size);
  if (range === 'unsatisfiable')
    return {
      status: 416,
      headers: { ...base, 'content-range': `bytes */${info.size}` },
      body: null,
      message: 'range not satisfiable',
    };
  if (range === null) {
    return {
      status: 200,
      headers: { ...base, 'content-length': String(info.size) },
      body: method === 'HEAD' ? null : createReadStream(real),
    };
  }
  return {
    status: 206,
    headers: {
      ...base,
      'content-length': String(range.end - range.start + 1),
      'content-range': `bytes ${range.start}-${range.end}/${info.size}`,
    },
    body: method === 'HEAD' ? null : createReadStream(real, { start: range.start, end: range.end }),
  };
}
