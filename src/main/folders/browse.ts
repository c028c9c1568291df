import type { Dirent } from 'node:fs';
import { opendir, readdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, parse } from 'node:path';
import { BROWSE_LIMIT, type BrowseAnswer, type BrowsePlace } from '../../shared/contract/browse';
import { AppError } from '../../shared/errors';

/** Where mounted drives appear: Linux (udisks, fstab) and macOS. */
const VOLUME_ROOTS = ['/media', '/mnt', '/Volumes'];
/** Mounted volumes listed at most per root (a /mnt full of folders is not a list of drives). */
const VOLUMES_PER_ROOT = 20;

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * One folder's sub-folders, by name only: no files, no sizes, nothing read inside them. A symbolic link counts when it
 * leads to a folder. Errors of the disk come back in plain words (AppError), never as a raw errno.
 */
export async function browseFolder(path: string | undefined, o: { hidden: boolean }): Promise<BrowseAnswer> {
  const asked = path ?? homedir();
  const real = await realpath(asked).catch((err: unknown) => {
    throw plainError(err, asked);
  });
  const info = await stat(real).catch((err: unknown) => {
    throw plainError(err, asked);
  });
  if (!info.isDirectory()) throw new AppError('bad_request', `${asked} is a file, not a folder`);
  const names: string[] = [];
  try {
    const dir = await opendir(real, { bufferSize: 256 });
    for await (const entry of dir) {
      if (!o.hidden && entry.name.startsWith('.')) continue;
      if (await isFolder(real, entry)) names.push(entry.name);
    }
  } catch (err) {
    throw plainError(err, asked);
  }
  names.sort(byName.compare);
  const parent = dirname(real);
  return {
    path: real,
    parent: parent === real ? null : parent,
    folders: names.slice(0, BROWSE_LIMIT),
    more: Math.max(0, names.length - BROWSE_LIMIT),
    places: await places(),
  };
}

async function isFolder(dir: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  // A link to a folder is one; a dangling link or a loop of links is left out, not an error of the whole listing.
  return stat(join(dir, entry.name)).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Home, the disk's root and the mounted volumes that exist on this machine. */
export async function places(): Promise<BrowsePlace[]> {
  const home = homedir();
  const out: BrowsePlace[] = [
    { label: 'Home', path: home, kind: 'home' },
    { label: 'Computer', path: parse(home).root || '/', kind: 'root' },
  ];
  for (const root of VOLUME_ROOTS) {
    const entries = await readdir(root, { withFileTypes: true }).catch(() => null);
    if (!entries) continue;
    const volumes = entries.filter((e) => !e.name.startsWith('.') && (e.isDirectory() || e.isSymbolicLink()));
    // /media/<user>/<volume> on most Linux desktops: the user's folder is where the drives are.
    for (const v of volumes.sort((a, b) => byName.compare(a.name, b.name)).slice(0, VOLUMES_PER_ROOT))
      out.push({ label: v.name, path: join(root, v.name), kind: 'volume' });
  }
  return out;
}

/** An fs error for the folder the editor asked for, in words. */
export function plainError(err: unknown, path: string): AppError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const name = basename(path) || path;
  switch (code) {
    case 'ENOENT':
      return new AppError('not_found', `There is no folder ${path} (it may have been moved, renamed or removed)`);
    case 'ENOTDIR':
      return new AppError('bad_request', `${path} is not a folder: part of it is a file`);
    case 'EACCES':
    case 'EPERM':
      return new AppError('forbidden', `Reelsync is not allowed to read the folder “${name}” (${path})`);
    case 'ELOOP':
      return new AppError('bad_request', `${path} is a loop of symbolic links that leads nowhere`);
    case 'ENAMETOOLONG':
      return new AppError('bad_request', 'That path is too long');
    case 'EIO':
    case 'ENXIO':
    case 'ENODEV':
      return new AppError('not_found', `The drive holding ${path} cannot be read (was it disconnected?)`);
    default:
      return new AppError('internal', `Could not read the folder ${path}: ${code ?? String(err)}`);
  }
}
