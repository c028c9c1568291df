import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { chmod, mkdir, rename, rm, stat } from 'node:fs/promises';
import { PRIVATE_DIR, PRIVATE_FILE } from '../../common/private-files';
import { dirname, join, resolve, sep } from 'node:path';

const BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{1,62}$/;

/**
 * Blobs on the local disk under root/<bucket>/<blob>, 0600 in folders of 0700. Behind this interface so a larger deployment can move to
 * an S3-compatible store. Every path is checked to stay inside its bucket.
 */
export class LocalBlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Absolute path for bucket/blob, or null when the names are invalid or would leave the bucket. */
  pathOf(bucket: string, blob: string): string | null {
    if (!BUCKET_PATTERN.test(bucket)) return null;
    if (!blob || blob.includes('\0') || blob.includes('\\') || blob.startsWith('/')) return null;
    if (blob.split('/').some((part) => part === '' || part === '.' || part === '..')) return null;
    const base = join(this.root, bucket);
    const target = resolve(base, blob);
    return target.startsWith(base + sep) ? target : null;
  }

  async size(bucket: string, blob: string): Promise<number | null> {
    const path = this.pathOf(bucket, blob);
    if (!path) return null;
    const info = await stat(path).catch(() => null);
    return info?.isFile() ? info.size : null;
  }

  read(bucket: string, blob: string, range?: { start: number; end: number }): ReadStream {
    const path = this.pathOf(bucket, blob);
    if (!path) throw new Error(`invalid blob address ${bucket}/${blob}`);
    return createReadStream(path, range ? { start: range.start, end: range.end } : {});
  }

  /** Moves a finished file into place (same filesystem: the temp folder lives under the data folder). */
  async adopt(bucket: string, blob: string, file: string): Promise<void> {
    const path = this.pathOf(bucket, blob);
    if (!path) throw new Error(`invalid blob address ${bucket}/${blob}`);
    await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR });
    await rename(file, path);
    await chmod(path, PRIVATE_FILE);
  }

  async writeFrom(bucket: string, blob: string, source: NodeJS.ReadableStream): Promise<void> {
    const path = this.pathOf(bucket, blob);
    if (!path) throw new Error(`invalid blob address ${bucket}/${blob}`);
    await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR });
    await new Promise<void>((ok, fail) => {
      const out = createWriteStream(path, { mode: PRIVATE_FILE });
      source.on('error', fail);
      out.on('error', fail);
      out.on('finish', () => ok());
      source.pipe(out);
    });
    await chmod(path, PRIVATE_FILE);
  }

  async delete(bucket: string, blob: string): Promise<void> {
    const path = this.pathOf(bucket, blob);
    if (path) await rm(path, { force: true });
  }

  /** Removes every blob under a prefix folder, e.g. keyframes/<videoNo>. */
  async deletePrefix(bucket: string, prefix: string): Promise<void> {
    const path = this.pathOf(bucket, prefix);
    if (path) await rm(path, { recursive: true, force: true });
  }
}
