import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';

/** Data files (databases, blobs, keys) are the user's alone: 0600 in folders of 0700, whatever the umask says. */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/** Creates `dir` (and its missing parents) and makes `dir` itself 0700, also when it existed with a wider mode. */
export function ensurePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  chmodSync(dir, PRIVATE_DIR);
}

export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
  await chmod(dir, PRIVATE_DIR);
}

/** Creates `file` empty when missing, and makes it 0600. */
export function ensurePrivateFileSync(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE));
  chmodSync(file, PRIVATE_FILE);
}

/** Makes each existing file of `files` 0600 (the -wal and -shm companions of a database, say). */
export function privateIfExistsSync(files: string[]): void {
  for (const f of files) if (existsSync(f)) chmodSync(f, PRIVATE_FILE);
}
