import { Writable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';

/** Where the parts go and how big they are. */
export interface PartWriterOptions {
  client: S3Client;
  bucket: string;
  key: string;
  partBytes: number;
  partsInFlight: number;
}

/**
 * A multipart upload fed as a stream: each part is sent as soon as it fills, at most `partsInFlight` at a time (a
 * write waits for a slot, so a slow store slows the writer instead of growing memory: partBytes x (partsInFlight + 1)
 * at most). `end()` sends the last part and completes the upload, a body smaller than one part goes as one PutObject;
 * `discard()` aborts the upload (or deletes the object once completed) so nothing is left behind.
 */
export class S3PartWriter extends Writable {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private uploadId: Promise<string> | undefined;
  private readonly parts: CompletedPart[] = [];
  private partsSent = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private failure: Error | undefined;
  private stored = false;
  private completing: Promise<void> | undefined;
  private discarded: Promise<void> | undefined;

  constructor(private readonly options: PartWriterOptions) {
    super({ highWaterMark: 1024 * 1024 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < this.options.partBytes) {
      callback(this.failure);
      return;
    }
    this.sendPart(this.take());
    this.waitForSlot().then(() => callback(this.failure), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.completing = this.finish();
    this.completing.then(() => callback(), callback);
  }

  /** Aborts the upload, or deletes the object when it was already stored: after a refusal, no blob stays. */
  discard(): Promise<void> {
    this.discarded ??= this.discardNow();
    return this.discarded;
  }

  private async discardNow(): Promise<void> {
    if (!this.destroyed) this.destroy();
    await Promise.allSettled([...this.inFlight, this.completing]);
    const { client, bucket, key } = this.options;
    const uploadId = await this.uploadId?.catch(() => undefined);
    if (uploadId && !this.stored) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
    } else if (this.stored) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    }
  }

  private async finish(): Promise<void> {
    const { client, bucket, key } = this.options;
    if (!this.uploadId) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: this.take() }));
      this.stored = true;
      return;
    }
    if (this.pendingBytes > 0) this.sendPart(this.take());
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure;
    const UploadId = await this.uploadId;
    const Parts = [...this.parts].sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
    await client.send(
      new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts } }),
    );
    this.stored = true;
  }

  private take(): Buffer {
    const body = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return body;
  }

  private sendPart(body: Buffer): void {
    const { client, bucket, key } = this.options;
    this.uploadId ??= client
      .send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }))
      .then(({ UploadId }) => UploadId ?? Promise.reject(new Error(`S3 gave no upload id for ${key}`)));
    const PartNumber = ++this.partsSent;
    const sent = this.uploadId
      .then((UploadId) =>
        client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: body })),
      )
      .then(
        ({ ETag }) => void this.parts.push({ ETag, PartNumber }),
        (err: unknown) => {
          this.failure ??= err instanceof Error ? err : new Error(String(err));
        },
      )
      .finally(() => this.inFlight.delete(sent));
    this.inFlight.add(sent);
  }

  private async waitForSlot(): Promise<void> {
    while (this.inFlight.size >= this.options.partsInFlight && !this.failure) await Promise.race(this.inFlight);
  }
}
