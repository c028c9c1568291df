import { ProbeError } from '../../common/media/ffprobe';
import { probeWithTrustedDuration } from '../../common/media/probe-duration';
import { UPLOAD_LIMITS, type UploadedVideo } from '../../shared/api-types';
import { indexingPrice } from '../accounts/billing';
import { bucketOf, type ServiceContext } from '../context';
import { invalidInput } from '../domain-errors';
import type { BlobReceiver } from '../storage/blob-store';
import { admitNewMedia, holdQueueCap } from '../ingest/admission';
import { safeFileName, urlFileName } from '../ingest/file-names';
import { startUrlUpload } from './url-upload';
import { type NewVideo, type VideoRow } from './videos';
import { newVideoNo } from '../ingest/video-numbers';

const ALLOWED_CODECS: readonly string[] = UPLOAD_LIMITS.codecs;

/** What the uploader tells about a video (form fields of POST /upload and /upload_url), as stored on its row. */
export type VideoDetails = Pick<
  NewVideo,
  | 'datetimeTaken'
  | 'cameraModel'
  | 'latitude'
  | 'longitude'
  | 'callback'
  | 'retainOriginal'
  | 'transcriptionPrompt'
  | 'tags'
>;

/** Where a new video goes and what is told about it. */
export interface UploadRequest {
  folderId: number | undefined;
  uniqueId: string | undefined;
  details: VideoDetails;
}

/** A new upload's place in the blob store, chosen before its first byte so that it is stored as it arrives. */
export interface IncomingUpload {
  videoNo: string;
  bucket: string;
  blob: string;
  receiver: BlobReceiver;
}

/** An uploaded file received whole in the service's tmp folder (and, on S3, sent to the store as it arrived). */
export interface ReceivedFile {
  tmpPath: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
}

/**
 * Ingest of interface A's new media: admission before a byte is read, then for a received file the checks, the
 * charge by duration, the store, the row and the index job; for a link, the row and the fetch job.
 */
export class LibraryIngest {
  constructor(private readonly ctx: ServiceContext) {}

  /** Before reading the body: rate limit, a balance for a minute of indexing, the indexing-queue cap. */
  async admit(accountId: number): Promise<void> {
    await admitNewMedia(this.ctx, accountId, indexingPrice(60));
  }

  /**
   * Where an upload named `fileName` goes while it arrives (BlobStore.receive), its length foreseen when the request
   * tells it: finished by fromFile, or aborted.
   */
  receive(accountId: number, fileName: string, expectedBytes: number | null): IncomingUpload {
    const videoNo = newVideoNo();
    const bucket = bucketOf(accountId);
    const blob = `videos/${videoNo}/${safeFileName(fileName)}`;
    return { videoNo, bucket, blob, receiver: this.ctx.blobs.receive(bucket, blob, expectedBytes) };
  }

  /**
   * Makes a received upload a new UNPARSE video and queues its indexing. The container is whitelisted before
   * ffprobe reads past the file's first bytes (media-input.ts): a playlist or any other format that refers to other
   * files is refused with the same answer, whatever it points at. The duration priced is checked against every
   * packet's timing (timeline.ts), on the staged copy while the store completes the blob. Any refusal or failure
   * aborts the blob (nothing stays in the store) and refunds what was charged.
   */
  async fromFile(
    accountId: number,
    file: ReceivedFile,
    incoming: IncomingUpload,
    request: UploadRequest,
  ): Promise<UploadedVideo> {
    const { ctx } = this;
    const { videoNo, bucket, blob, receiver } = incoming;
    let charged: number | null = null;
    try {
      const probe = await probeWithTrustedDuration(file.tmpPath, 'uploadVideo').catch((err: unknown) => {
        if (err instanceof ProbeError && err.refused) throw invalidInput(`file is not accepted: ${err.message}`);
        throw invalidInput(`file is not a readable video: ${err instanceof ProbeError ? err.message : 'unreadable'}`);
      });
      const { video } = probe;
      if (!video) throw invalidInput('file has no video stream');
      if (!ALLOWED_CODECS.includes(video.codec)) {
        throw invalidInput(`video codec ${video.codec} is not supported; allowed: h264, h265, hevc, vp9`);
      }
      const folderId = await ctx.folders.resolve(accountId, request.folderId, request.uniqueId);
      const price = indexingPrice(probe.durationSeconds);
      const name = safeFileName(file.name);
      await ctx.billing.charge(accountId, price, 'upload indexing', videoNo);
      charged = price;
      await receiver.finish(file.tmpPath);
      // The row and its index job together: a video without its job would wait UNPARSE for ever.
      const row = await ctx.sql.transaction(async (tx) => {
        await holdQueueCap(ctx, tx, accountId);
        const inserted = await ctx.videos.insert(
          {
            accountId,
            folderId,
            videoName: name,
            originalName: file.name,
            bucket,
            blob,
            contentType: file.contentType,
            size: file.size,
            sha256: file.sha256,
            duration: probe.durationSeconds,
            width: video.width,
            height: video.height,
            fps: video.fps,
            codec: video.codec,
            ...request.details,
          },
          videoNo,
          tx,
        );
        await ctx.jobs.enqueue('index', videoNo, { videoId: inserted.id }, ctx.config.indexer.maxAttempts, tx);
        return inserted;
      });
      return uploaded(row);
    } catch (err) {
      if (charged !== null) await ctx.billing.refund(accountId, charged, 'upload failed', videoNo);
      await receiver.abort();
      throw err;
    }
  }

  /** Records a video whose original a job fetches from `url` (url-upload.ts), within the concurrent-fetch cap. */
  async fromUrl(accountId: number, url: string, request: UploadRequest): Promise<UploadedVideo> {
    const name = urlFileName(url);
    const row = await startUrlUpload(
      this.ctx,
      {
        accountId,
        videoName: name,
        originalName: name,
        bucket: bucketOf(accountId),
        blob: null,
        contentType: 'application/octet-stream',
        size: 0,
        sha256: '',
        duration: null,
        width: null,
        height: null,
        fps: null,
        codec: null,
        ...request.details,
      },
      request,
      url,
    );
    return uploaded(row);
  }
}

function uploaded(row: VideoRow): UploadedVideo {
  return {
    videoNo: row.video_no,
    videoName: row.video_name,
    videoStatus: 'UNPARSE',
    uploadTime: String(row.created_at),
  };
}
