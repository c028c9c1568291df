import { basename, relative, sep } from 'node:path';

/** Names never synced: OS metadata, NAS thumbnails, trash, and editing apps' proxy, render and cache folders. */
export const JUNK_NAMES: ReadonlySet<string> = new Set(
  [
    '.DS_Store',
    'Thumbs.db',
    'desktop.ini',
    '@eaDir',
    '.Trashes',
    '.Spotlight-V100',
    '.fseventsd',
    '$RECYCLE.BIN',
    'System Volume Information',
    '#recycle',
    'lost+found',
    // Premiere Pro / After Effects
    'Adobe Premiere Pro Auto-Save',
    'Adobe Premiere Pro Video Previews',
    'Adobe Premiere Pro Audio Previews',
    'Media Cache',
    'Media Cache Files',
    'Peak Files',
    // DaVinci Resolve
    'CacheClip',
    'ProxyMedia',
    'OptimizedMedia',
    // Final Cut Pro
    'Render Files',
    'Proxy Media',
    'Transcoded Media',
    'Analysis Files',
    'Shared Items',
    // Avid
    'Avid MediaFiles',
  ].map((n) => n.toLowerCase()),
);

/** Partial downloads and editors' temporary files. */
const JUNK_SUFFIXES = ['.part', '.crdownload', '.download', '.tmp', '.partial'];

/** A user ignore pattern (glob: `*`, `?`, `**`) -> a test on the path relative to the watch root, with `/` separators. */
export function globMatcher(pattern: string): (relPath: string) => boolean {
  const p = pattern.replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i] ?? '';
    if (c === '*' && p[i + 1] === '*') {
      re += '.*';
      i++;
      if (p[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A pattern without a slash matches a name at any depth; with one, it is anchored at the root. Either matches a folder's contents.
  const rx = p.includes('/') ? new RegExp(`^${re}(/.*)?$`, 'i') : new RegExp(`(^|/)${re}(/.*)?$`, 'i');
  return (relPath) => rx.test(relPath);
}

/** Whether a path under `root` is skipped: junk names, hidden (dot) entries, partial files, or a user pattern. */
export function makeIgnore(root: string, patterns: readonly string[]): (path: string) => boolean {
  const matchers = patterns.map(globMatcher);
  return (path: string): boolean => {
    const rel = relative(root, path);
    if (rel === '') return false;
    if (rel.startsWith('..')) return true;
    const parts = rel.split(sep);
    for (const part of parts) {
      if (part.startsWith('.') || JUNK_NAMES.has(part.toLowerCase())) return true;
    }
    const name = basename(path).toLowerCase();
    if (JUNK_SUFFIXES.some((s) => name.endsWith(s))) return true;
    const relSlash = parts.join('/');
    return matchers.some((m) => m(relSlash));
  };
}
