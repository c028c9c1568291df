import { constants } from 'node:fs';
import { copyFile, link, open, unlink } from 'node:fs/promises';
import { basename, extname, isAbsolute, relative, resolve } from 'node:path';

/** Windows device names, reserved with any extension (CON.mp4 is still CON) and in any case. */
const RESERVED = /^(con|prn|aux|nul|clock\$|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;
const MAX_BYTES = 200;

/**
 * A single safe file name from a server-supplied value (a blob path, a Content-Disposition name): only its last path
 * segment, no control or path characters, no leading dots or trailing dots/spaces (Windows strips them), no reserved
 * device names, at most 200 UTF-8 bytes with the extension kept. Never empty, never "." or "..".
 */
export function sanitizeFileName(raw: string, fallback = 'download'): string {
  const lastSegment =
    raw
      .split(/[/\\]/)
      .filter((s) => s !== '')
      .pop() ?? '';
  let name = [...lastSegment.normalize('NFC')]
    .map(cleanChar)
    .join('')
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (name === '') name = sanitizeFallback(fallback);
  const ext = extname(name);
  const stem = ext ? name.slice(0, -ext.length) : name;
  if (RESERVED.test(stem.split('.')[0] ?? '')) name = `_${name}`;
  return truncateBytes(name, MAX_BYTES);
}

const FORBIDDEN = new Set(['<', '>', ':', '"', '|', '?', '*']);

/** Control characters (C0, DEL, C1) and the characters Windows forbids become "_"; invisible direction marks go. */
function cleanChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || FORBIDDEN.has(ch)) return '_';
  if (
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  )
    return '';
  return ch;
}

function sanitizeFallback(fallback: string): string {
  const f = fallback.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[.]+/, '');
  return f === '' ? 'download' : f;
}

function truncateBytes(name: string, max: number): string {
  if (Buffer.byteLength(name) <= max) return name;
  const ext = extname(name);
  const keepExt = Buffer.byteLength(ext) <= 16 ? ext : '';
  let stem = keepExt ? name.slice(0, -keepExt.length) : name;
  while (Buffer.byteLength(stem) + Buffer.byteLength(keepExt) > max) stem = [...stem].slice(0, -1).join('');
  return `${stem}${keepExt}`;
}

/** `dir/name` after checking that the result lies directly inside `dir` (a sanitised name always does; this is the guard). */
export function safeJoin(dir: string, name: string): string {
  const root = resolve(dir);
  const target = resolve(root, name);
  const rel = relative(root, target);
  if (
    rel === '' ||
    rel.startsWith('..') ||
    isAbsolute(rel) ||
    rel !== basename(target) ||
    rel.includes('/') ||
    rel.includes('\\')
  ) {
    throw new Error(`refusing a file name that leaves its folder: ${JSON.stringify(name)}`);
  }
  return target;
}

/** "name.ext", "name (1).ext", "name (2).ext"... */
export function numbered(name: string, n: number): string {
  if (n === 0) return name;
  const ext = extname(name);
  const stem = ext ? name.slice(0, -ext.length) : name;
  return truncateBytes(`${stem} (${n})${ext}`, MAX_BYTES + 8);
}

/**
 * Moves `from` to a new file in `dir` named `name` or, when taken, `name (n)`; never overwrites (hard link, which fails
 * on an existing name, then unlink; an exclusive create + copy where links are not supported). Returns the final path.
 */
export async function placeWithoutClobber(from: string, dir: string, name: string): Promise<string> {
  for (let n = 0; n < 10_000; n++) {
    const target = safeJoin(dir, numbered(name, n));
    try {
      await link(from, target);
      await unlink(from);
      return target;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'EEXIST') continue;
      if (code === 'EPERM' || code === 'EXDEV' || code === 'ENOTSUP' || code === 'EOPNOTSUPP')
        return copyExclusive(from, dir, name, n);
      throw err;
    }
  }
  throw new Error(`no free name for ${name} in ${dir}`);
}

async function copyExclusive(from: string, dir: string, name: string, startAt: number): Promise<string> {
  for (let n = startAt; n < 10_000; n++) {
    const target = safeJoin(dir, numbered(name, n));
    try {
      await copyFile(from, target, constants.COPYFILE_EXCL);
      await unlink(from);
      return target;
    } catch (err) {
      if ((err as { code?: string }).code === 'EEXIST') continue;
      throw err;
    }
  }
  throw new Error(`no free name for ${name} in ${dir}`);
}

/** Creates an empty file `dir/name` (or a numbered variant) exclusively and returns its path: a reserved output name. */
export async function reserveName(dir: string, name: string): Promise<string> {
  for (let n = 0; n < 10_000; n++) {
    const target = safeJoin(dir, numbered(name, n));
    try {
      const fh = await open(target, 'wx');
      await fh.close();
      return target;
    } catch (err) {
      if ((err as { code?: string }).code === 'EEXIST') continue;
      throw err;
    }
  }
  throw new Error(`no free name for ${name} in ${dir}`);
}
