import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { bucketOf } from '../context';
import type { BlobStore, LocalBlobFile } from '../storage/blob-store';

/** Where a library's interface B uploads are received: `<data folder>/datalake-uploads`. */
export function uploadDirOf(dataDir: string): string {
  return join(dataDir, 'datalake-uploads');
}

/** What names an upload: the datalake video it becomes and the account whose bucket stages it. */
export interface UploadOwner {
  id: string;
  account_id: number;
}

/**
 * Interface B's uploads between the process that receives them and the ingest that stores them. A file is written to
 * `<uploadDir>/<id>.bin` by the process receiving it (resumable chunks stay there until finalized); once complete it
 * is staged in the account's bucket (datalake-uploads/<id>.bin), where an ingest worker on any machine reads it.
 */
export class UploadStaging {
  constructor(
    private readonly blobs: BlobStore,
    readonly uploadDir: string,
  ) {}

  /** Where the receiving process writes the upload; unlike tmp/ it survives a restart. */
  path(videoId: string): string {
    return join(this.uploadDir, `${videoId}.bin`);
  }

  /** The blob a complete upload waits under until its ingest stores it as a library video. */
  blob(videoId: string): string {
    return `datalake-uploads/${videoId}.bin`;
  }

  /** Hands a complete upload to the blob store (a rename on local disk, a multipart upload to S3). */
  async stage(upload: UploadOwner): Promise<void> {
    await this.blobs.adopt(bucketOf(upload.account_id), this.blob(upload.id), this.path(upload.id));
  }

  /** Puts a staged upload back in path(): a finalize that could not queue its ingest leaves the session whole. */
  async unstage(upload: UploadOwner): Promise<void> {
    const bucket = bucketOf(upload.account_id);
    const staged = await this.blobs.localFile(bucket, this.blob(upload.id));
    if (!staged) return;
    try {
      await rename(staged.path, this.path(upload.id));
    } finally {
      await staged.release();
    }
    await this.blobs.delete(bucket, this.blob(upload.id));
  }

  /**
   * The upload as a local file for the ingest (a streamed copy from S3, the staged file itself on disk); one queued
   * before uploads were staged is still where it was received. Null when it is gone.
   */
  async open(upload: UploadOwner): Promise<LocalBlobFile | null> {
    const staged = await this.blobs.localFile(bucketOf(upload.account_id), this.blob(upload.id));
    if (staged) return staged;
    const received = this.path(upload.id);
    return (await stat(received).catch(() => null)) ? { path: received, release: () => Promise.resolve() } : null;
  }

  /** Removes an upload wherever it waits: the receiving process's file and the staged blob. */
  async remove(upload: UploadOwner): Promise<void> {
    await rm(this.path(upload.id), { force: true });
    await this.blobs.delete(bucketOf(upload.account_id), this.blob(upload.id));
  }
}
