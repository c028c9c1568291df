import { PassThrough, Writable } from 'node:stream';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';

/** S3 takes at most 5 GiB in one PutObject. */
export const MAX_SINGLE_PUT_BYTES = 5 * 1024 ** 3;

export interface StreamedPutOptions {
  client: S3Client;
  bucket: string;
  key: string;
  /** The length foreseen before the first byte (S3 needs it in the request's Content-Length). */
  expectedBytes: number;
}

/**
 * One PutObject fed as the bytes arrive: S3 writes the object once, where a multipart upload stores every part and
 * then copies them all into the object on completion (on s3rver and other disk-backed stores that copy costs as much
 * as the whole upload). The length must be known first; when the bytes that come are not exactly that many, or the
 * store fails, the writer drops the rest without failing its writer side and `stored()` says false, so that the owner
 * stores its complete local copy another way. Memory: the two 1 MiB buffers, whatever the size.
 */
export class S3StreamedPut extends Writable {
  private readonly body = new PassThrough({ highWaterMark: 1024 * 1024 });
  private readonly put: Promise<boolean>;
  /** Ending the body early does not end the HTTP request (it would wait for the rest): the abort does. */
  private readonly cancel = new AbortController();
  private received = 0;
  private failed = false;

  constructor(private readonly options: StreamedPutOptions) {
    super({ highWaterMark: 1024 * 1024 });
    const { client, bucket, key, expectedBytes } = options;
    this.put = client
      .send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: this.body, ContentLength: expectedBytes }), {
        abortSignal: this.cancel.signal,
      })
      .then(
        () => true,
        () => {
          this.giveUp();
          return false;
        },
      );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.received += chunk.length;
    if (this.failed) return callback();
    if (this.received > this.options.expectedBytes) {
      this.giveUp();
      return callback();
    }
    if (this.body.write(chunk)) return callback();
    const done = (): void => {
      this.body.off('drain', done);
      this.body.off('close', done);
      callback();
    };
    this.body.once('drain', done);
    this.body.once('close', done);
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.failed && this.received === this.options.expectedBytes) this.body.end();
    else this.giveUp();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.writableFinished) this.giveUp(); // destroyed before its end (after it, autoDestroy: the PUT goes on)
    callback(error);
  }

  /** Whether the object holds exactly the bytes written: false after a different length or a failed PUT. */
  async stored(): Promise<boolean> {
    const put = await this.put;
    return put && !this.failed && this.received === this.options.expectedBytes;
  }

  /** Waits for the PUT to settle (after destroy() it fails at once), so that nothing is still writing the object. */
  async settled(): Promise<void> {
    await this.put;
  }

  private giveUp(): void {
    this.failed = true;
    this.cancel.abort();
    if (!this.body.destroyed) this.body.destroy();
  }
}
