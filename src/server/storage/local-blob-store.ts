import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR, PRIVATE_FILE } from '../../common/private-files';
import {
  blobKey,
  type BlobRange,
  type BlobReceiver,
  type BlobStore,
  type ListedBlob,
  type LocalBlobFile,
} from './blob-store';

/** Blobs on the local disk under root/<bucket>/<blob>, 0600 in folders of 0700. Every path is checked to stay inside its bucket. */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local';
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Absolute path for bucket/blob, or null when the names are invalid or would leave the bucket. */
  pathOf(bucket: string, blob: string): string | null {
    const key = blobKey(bucket, blob);
    if (!key) return null;
    const base = resolve(this.root, bucket);
    const target = resolve(this.root, key);
    return target.startsWith(base + sep) ? target : null;
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: PRIVATE_DIR });
  }

  async size(bucket: string, blob: string): Promise<number | null> {
    const path = this.pathOf(bucket, blob);
    if (!path) return null;
    const info = await stat(path).catch(() => null);
    return info?.isFile() ? info.size : null;
  }

  read(bucket: string, blob: string, range?: BlobRange): ReadStream {
    return createReadStream(this.validPath(bucket, blob), range ? { start: range.start, end: range.end } : {});
  }

  /** Moves a finished file into place (same filesystem: the temp folder lives under the data folder). */
  async adopt(bucket: string, blob: string, file: string): Promise<void> {
    const path = this.validPath(bucket, blob);
    await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR });
    await rename(file, path);
    await chmod(path, PRIVATE_FILE);
    // Stored now, as on S3: a rename keeps the file's last write, which list() would report as the blob's age.
    const now = new Date();
    await utimes(path, now, now);
  }

  /** Nothing to copy as it arrives: the staged file is renamed into place (same filesystem, as adopt). */
  receive(bucket: string, blob: string): BlobReceiver {
    const path = this.validPath(bucket, blob);
    return {
      copy: null,
      finish: (staged) => this.adopt(bucket, blob, staged),
      abort: () => rm(path, { force: true }),
    };
  }

  async writeFrom(bucket: string, blob: string, source: Readable): Promise<void> {
    const path = this.validPath(bucket, blob);
    await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR });
    await pipeline(source, createWriteStream(path, { mode: PRIVATE_FILE }));
    await chmod(path, PRIVATE_FILE);
  }

  async delete(bucket: string, blob: string): Promise<void> {
    const path = this.pathOf(bucket, blob);
    if (path) await rm(path, { force: true });
  }

  async deletePrefix(bucket: string, prefix: string): Promise<void> {
    const path = this.pathOf(bucket, prefix);
    if (path) await rm(path, { recursive: true, force: true });
  }

  async *list(bucket: string, prefix: string): AsyncIterable<ListedBlob> {
    const folder = this.pathOf(bucket, prefix);
    if (!folder) return;
    const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch((err: unknown) => {
      if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return [];
      throw err;
    });
    const bucketDir = resolve(this.root, bucket);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      const info = await stat(path).catch(() => null); // removed meanwhile: not listed
      if (info) yield { blob: relative(bucketDir, path).split(sep).join('/'), modifiedMs: info.mtimeMs };
    }
  }

  /** The stored file itself: nothing to copy, nothing to remove. */
  async localFile(bucket: string, blob: string): Promise<LocalBlobFile | null> {
    const path = (await this.size(bucket, blob)) === null ? null : this.pathOf(bucket, blob);
    return path ? { path, release: () => Promise.resolve() } : null;
  }

  private validPath(bucket: string, blob: string): string {
    const path = this.pathOf(bucket, blob);
    if (!path) throw new Error(`invalid blob address ${bucket}/${blob}`);
    return path;
  }
}
