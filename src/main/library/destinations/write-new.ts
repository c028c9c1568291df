import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { AppError, unreachable } from '../../../shared/errors';
import { numbered, safeJoin } from '../filenames';

/** What to do when the destination file exists: refuse (file_exists), a new name "x (1).csv", or replace it. */
export type OnExists = 'refuse' | 'rename' | 'replace';

const EXPORT_MODE = 0o644;

/** Creates `path` exclusively (a file or symlink already there fails with EEXIST) and writes it, 0644 whatever the umask. */
async function writeExclusive(path: string, content: string): Promise<void> {
  const fh = await open(path, 'wx', EXPORT_MODE);
  try {
    await fh.writeFile(content, 'utf8');
    await fh.chmod(EXPORT_MODE);
  } catch (err) {
    await fh.close();
    await rm(path, { force: true });
    throw err;
  }
  await fh.close();
}

const isExists = (err: unknown): boolean => (err as { code?: string }).code === 'EEXIST';

/**
 * Writes a new file `dir/name`, never executable, never through a symlink. An existing file is never overwritten in
 * place: `replace` writes a temporary file next to it and renames it over (a symlink there is replaced, not followed).
 */
export async function writeNewFile(dir: string, name: string, content: string, onExists: OnExists): Promise<string> {
  switch (onExists) {
    case 'refuse': {
      const target = safeJoin(dir, name);
      try {
        await writeExclusive(target, content);
      } catch (err) {
        if (isExists(err)) throw new AppError('file_exists', `${target} already exists: nothing was written`);
        throw err;
      }
      return target;
    }
    case 'rename':
      for (let n = 0; n < 10_000; n++) {
        const target = safeJoin(dir, numbered(name, n));
        try {
          await writeExclusive(target, content);
          return target;
        } catch (err) {
          if (!isExists(err)) throw err;
        }
      }
      throw new AppError('file_exists', `no free name for ${name} in ${dir}`);
    case 'replace': {
      const target = safeJoin(dir, name);
      const temp = safeJoin(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
      await writeExclusive(temp, content);
      try {
        await rename(temp, target);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      return target;
    }
    default:
      throw unreachable(onExists);
  }
}
