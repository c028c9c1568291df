import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { PRIVATE_DIR, PRIVATE_FILE } from '../../common/private-files';
import { openS3Client, type S3Credentials, type S3Settings } from './s3-client';
import { S3PartWriter } from './s3-part-writer';
import { MAX_SINGLE_PUT_BYTES, S3StreamedPut } from './s3-streamed-put';
import {
  blobKey,
  type BlobRange,
  type BlobReceiver,
  type BlobStore,
  type ListedBlob,
  type LocalBlobFile,
} from './blob-store';

/** S3 allows 10,000 parts per upload; parts of at least 8 MiB, queueSize at a time, bound the memory an upload holds. */
export const MIN_PART_BYTES = 8 * 1024 * 1024;
const MAX_PARTS = 10_000;
export const PARTS_IN_FLIGHT = 4;
/** DeleteObjects takes at most 1,000 keys per call. */
const DELETE_BATCH = 1000;

/**
 * Blobs as objects of one S3 bucket (AWS S3, MinIO, Ceph RGW, R2...), keyed `<service bucket>/<blob>`. Uploads are
 * multipart and streamed (S3PartWriter: at most PARTS_IN_FLIGHT parts in memory, whatever the size); reads stream with
 * Range; the media tools get a streamed copy in the data folder's tmp/, removed on release (and at the next start).
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    credentials: S3Credentials,
    private readonly tmpDir: string,
  ) {
    this.client = openS3Client(settings, credentials);
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }));
    } catch (err) {
      const where = this.settings.endpoint ?? `AWS S3 (${this.settings.region})`;
      const status = err instanceof S3ServiceException ? ` (HTTP ${err.$metadata.httpStatusCode ?? '?'})` : '';
      throw new Error(
        `storage.s3: cannot use bucket "${this.settings.bucket}" at ${where}: ${messageOf(err)}${status}`,
        { cause: err },
      );
    }
  }

  async size(bucket: string, blob: string): Promise<number | null> {
    const key = blobKey(bucket, blob);
    if (!key) return null;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return head.ContentLength ?? null;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  read(bucket: string, blob: string, range?: BlobRange): Readable {
    const key = this.validKey(bucket, blob);
    const abort = new AbortController();
    const { client } = this;
    const Bucket = this.settings.bucket;
    // The request starts when the first bytes are wanted; a reader that goes away aborts it.
    async function* body(): AsyncGenerator<Buffer> {
      const res = await client.send(
        new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        { abortSignal: abort.signal },
      );
      if (!(res.Body instanceof Readable)) throw new Error(`S3 answered no body for ${key}`);
      for await (const chunk of res.Body) yield chunk as Buffer;
    }
    const stream = Readable.from(body(), { objectMode: false });
    stream.once('close', () => abort.abort());
    return stream;
  }

  async adopt(bucket: string, blob: string, file: string): Promise<void> {
    const key = this.validKey(bucket, blob);
    const { size } = await stat(file);
    await this.upload(key, createReadStream(file), size);
    await rm(file, { force: true });
  }

  /**
   * With the upload's length known before its first byte: one PutObject streamed as the bytes arrive (S3StreamedPut,
   * the store writes the object once); should the length differ or the PUT fail, finish stores the staged copy as a
   * multipart upload instead. Without it: parts go out as they fill (S3PartWriter). Finish waits for the store and
   * removes the staged copy.
   */
  receive(bucket: string, blob: string, expectedBytes?: number | null): BlobReceiver {
    const key = this.validKey(bucket, blob);
    if (expectedBytes && expectedBytes >= MIN_PART_BYTES && expectedBytes <= MAX_SINGLE_PUT_BYTES) {
      return this.receiveStreamedPut(key, expectedBytes);
    }
    const copy = this.partWriter(key, MIN_PART_BYTES);
    return {
      copy,
      finish: async (staged) => {
        await finished(copy);
        await rm(staged, { force: true });
      },
      abort: () => copy.discard(),
    };
  }

  private receiveStreamedPut(key: string, expectedBytes: number): BlobReceiver {
    const copy = new S3StreamedPut({ client: this.client, bucket: this.settings.bucket, key, expectedBytes });
    return {
      copy,
      finish: async (staged) => {
        await finished(copy);
        if (!(await copy.stored())) await this.upload(key, createReadStream(staged), (await stat(staged)).size);
        await rm(staged, { force: true });
      },
      abort: async () => {
        if (!copy.destroyed) copy.destroy();
        await copy.settled();
        await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      },
    };
  }

  async writeFrom(bucket: string, blob: string, source: Readable): Promise<void> {
    await this.upload(this.validKey(bucket, blob), source, null);
  }

  async delete(bucket: string, blob: string): Promise<void> {
    const key = blobKey(bucket, blob);
    if (key) await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  async deletePrefix(bucket: string, prefix: string): Promise<void> {
    const key = blobKey(bucket, prefix);
    if (!key) return;
    const Bucket = this.settings.bucket;
    // The trailing slash keeps videos/VI1 from also matching videos/VI10.
    for (let token: string | undefined, more = true; more;) {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket, Prefix: `${key}/`, ContinuationToken: token, MaxKeys: DELETE_BATCH }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length > 0) {
        const res = await this.client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }),
        );
        const failed = res.Errors?.[0];
        if (failed)
          throw new Error(`S3 refused to delete ${failed.Key ?? key}: ${failed.Message ?? failed.Code ?? ''}`);
      }
      token = page.NextContinuationToken;
      more = page.IsTruncated === true && token !== undefined;
    }
  }

  async *list(bucket: string, prefix: string): AsyncIterable<ListedBlob> {
    const key = blobKey(bucket, prefix);
    if (!key) return;
    for (let token: string | undefined, more = true; more;) {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: `${key}/`, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield { blob: object.Key.slice(bucket.length + 1), modifiedMs: object.LastModified?.getTime() ?? Date.now() };
      }
      token = page.NextContinuationToken;
      more = page.IsTruncated === true && token !== undefined;
    }
  }

  async localFile(bucket: string, blob: string): Promise<LocalBlobFile | null> {
    const key = blobKey(bucket, blob);
    if (!key) return null;
    await mkdir(this.tmpDir, { recursive: true, mode: PRIVATE_DIR });
    const dir = await mkdtemp(join(this.tmpDir, 'blob-'));
    const release = (): Promise<void> => rm(dir, { recursive: true, force: true });
    // The original name is kept: some tools pick a demuxer by extension.
    const path = join(dir, basename(blob));
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      if (!(res.Body instanceof Readable)) throw new Error(`S3 answered no body for ${key}`);
      await pipeline(res.Body, createWriteStream(path, { mode: PRIVATE_FILE }));
      return { path, release };
    } catch (err) {
      await release();
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** Multipart when larger than one part, with parts sized so that `size` fits in 10,000 of them; aborted on failure. */
  private async upload(key: string, body: Readable, size: number | null): Promise<void> {
    const partBytes = size === null ? MIN_PART_BYTES : Math.max(MIN_PART_BYTES, Math.ceil(size / MAX_PARTS));
    const writer = this.partWriter(key, partBytes);
    try {
      await pipeline(body, writer);
    } catch (err) {
      await writer.discard().catch(() => {}); // the upload's own error is the one to tell
      throw err;
    }
  }

  private partWriter(key: string, partBytes: number): S3PartWriter {
    return new S3PartWriter({
      client: this.client,
      bucket: this.settings.bucket,
      key,
      partBytes,
      partsInFlight: PARTS_IN_FLIGHT,
    });
  }

  private validKey(bucket: string, blob: string): string {
    const key = blobKey(bucket, blob);
    if (!key) throw new Error(`invalid blob address ${bucket}/${blob}`);
    return key;
  }
}

function isNotFound(err: unknown): boolean {
  return err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404;
}

function messageOf(err: unknown): string {
  if (err instanceof S3ServiceException) return err.message && err.message !== 'UnknownError' ? err.message : err.name;
  return err instanceof Error ? err.message : String(err);
}
