import { stat } from 'node:fs/promises';
import type { Logger } from '../log';
import { readOriginalIdentity, type OriginalIdentity } from './original-identity';

/** Where identities are kept between runs (the client database's file_identity rows), by path, size and mtime. */
export interface IdentityStore {
  get(path: string, size: number, mtimeMs: number): OriginalIdentity | null;
  /** Records it for a watched file (other paths, such as clip files, are not kept). */
  put(path: string, size: number, mtimeMs: number, identity: OriginalIdentity): void;
}

/**
 * The identity of local media files: read once per content (size and mtime) and then recalled, so a file that changes
 * is read again. Files that cannot be read answer null (and are logged), never an error.
 */
export class OriginalIdentities {
  private readonly memory = new Map<string, { size: number; mtimeMs: number; identity: OriginalIdentity }>();
  private readonly log: Logger | undefined;

  constructor(
    private readonly store: IdentityStore | null,
    logger?: Logger,
  ) {
    this.log = logger?.child({ module: 'original-identity' });
  }

  async identityOf(path: string, signal?: AbortSignal): Promise<OriginalIdentity | null> {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    const mtimeMs = Math.trunc(info.mtimeMs);
    const seen = this.memory.get(path);
    if (seen && seen.size === info.size && seen.mtimeMs === mtimeMs) return seen.identity;
    const stored = this.store?.get(path, info.size, mtimeMs) ?? null;
    if (stored) return stored;
    try {
      const identity = await readOriginalIdentity(path, signal);
      this.memory.set(path, { size: info.size, mtimeMs, identity });
      this.store?.put(path, info.size, mtimeMs, identity);
      return identity;
    } catch (err) {
      this.log?.warn({ path, err }, 'could not read the identity of a media file');
      return null;
    }
  }
}
