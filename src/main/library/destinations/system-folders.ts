import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** Folders whose whole tree belongs to the operating system: never watched, never written to. */
const SYSTEM_TREES_POSIX = [
  '/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/sys',
  '/dev',
  '/boot',
  '/run',
  '/System',
  '/Library',
  '/private/etc',
  '/private/var/db',
];
/** Folders that hold everyone's data: their subfolders are fine (/mnt/card), they themselves are not. */
const SHARED_TOPS_POSIX = [
  '/',
  '/home',
  '/Users',
  '/Volumes',
  '/mnt',
  '/media',
  '/tmp',
  '/var',
  '/private',
  '/opt',
  '/srv',
  '/root',
];
const SYSTEM_TREES_WIN = ['C:\\Windows', 'C:\\Program Files', 'C:\\Program Files (x86)', 'C:\\ProgramData'];

export interface FolderContext {
  /** The app's own data folder (databases, keys, the embedded service's blobs). */
  dataDir: string;
  home?: string;
}

function norm(p: string): string {
  const n = path.resolve(p);
  return process.platform === 'win32' ? n.toLowerCase() : n;
}

function inside(child: string, parent: string): boolean {
  const c = norm(child);
  const p = norm(parent);
  return c === p || c.startsWith(p.endsWith(path.sep) ? p : p + path.sep);
}

/** The real path (symlinks resolved) of an existing path; of its nearest existing ancestor plus the rest otherwise. */
export async function realPathOf(target: string): Promise<string> {
  const abs = path.resolve(target);
  const rest: string[] = [];
  let current = abs;
  for (;;) {
    try {
      return path.join(await realpath(current), ...rest);
    } catch (err) {
      const code = (err as { code?: string }).code;
      const parent = path.dirname(current);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === current) throw err;
      rest.unshift(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Why `real` (an absolute, symlink-resolved path) cannot be a watch folder or a place to write, or null. Refused: the
 * operating system's trees, shared top folders themselves (/, /home, /mnt, a drive root), the home folder itself,
 * the app's data folder, anything inside it and anything that contains it (a watcher there would sync the app's own
 * files).
 */
export function systemFolderProblem(real: string, ctx: FolderContext): string | null {
  const home = ctx.home ?? homedir();
  const win = process.platform === 'win32';
  const trees = win ? SYSTEM_TREES_WIN : SYSTEM_TREES_POSIX;
  const tree = trees.find((t) => inside(real, t));
  if (tree) return `${real} is a system folder (inside ${tree})`;
  const driveRoot = win && /^[a-z]:\\?$/i.test(real);
  if (driveRoot || (!win && SHARED_TOPS_POSIX.some((t) => norm(t) === norm(real))))
    return `${real} is a top-level folder shared by the whole system: choose a folder inside it`;
  if (norm(real) === norm(home)) return `${real} is your home folder itself: choose a folder inside it`;
  if (inside(real, ctx.dataDir)) return `${real} is inside Reelsync's own data folder ${ctx.dataDir}`;
  if (inside(ctx.dataDir, real)) return `${real} contains Reelsync's own data folder ${ctx.dataDir}`;
  return null;
}

/** A hidden folder on the way (~/.config, ~/.ssh): where programs keep their settings and start-up files. */
export function hiddenComponent(real: string): string | null {
  return real.split(/[\\/]/).find((part) => part.startsWith('.') && part !== '.' && part !== '..') ?? null;
}
