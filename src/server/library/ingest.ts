import { ProbeError } from '../../common/media/ffprobe';
import { probeWithTrustedDuration } from '../../common/media/probe-duration';
import { UPLOAD_LIMITS, type UploadedVideo } from '../../shared/api-types';
import { indexingPrice } from '../accounts/billing';
import { bucketOf, type ServiceContext } from '../context';
import { invalidInput as badRequest } from '../domain-errors';
import { admitNewMedia, holdQueueCap } from './admission';
import { safeFileName, urlFileName } from './file-names';
import { startUrlUpload } from './url-upload';
import { newVideoNo, type NewVideo, type VideoRow } from './videos';

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

/** An uploaded file received whole in the service's tmp folder. */
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
   * Stores a received upload as a new UNPARSE video and queues its indexing. The container is whitelisted before
   * ffprobe reads past the file's first bytes (media-input.ts): a playlist or any other format that refers to other
   * files is refused with the same answer, whatever it points at. The duration priced is checked against every
   * packet's timing (timeline.ts). A failure after the charge refunds it and removes the stored file.
   */
  async fromFile(accountId: number, file: ReceivedFile, request: UploadRequest): Promise<UploadedVideo> {
    const { ctx } = this;
    const probe = await probeWithTrustedDuration(file.tmpPath, 'uploadVideo').catch((err: unknown) => {
      if (err instanceof ProbeError && err.refused) throw badRequest(`file is not accepted: ${err.message}`);
      throw badRequest(`file is not a readable video: ${err instanceof ProbeError ? err.message : 'unreadable'}`);
    });
    const { video } = probe;
    if (!video) throw badRequest('file has no video stream');
    if (!ALLOWED_CODECS.includes(video.codec)) {
      throw badRequest(`video codec ${video.codec} is not supported; allowed: h264, h265, hevc, vp9`);
    }

    const folderId = await ctx.folders.resolve(accountId, request.folderId, request.uniqueId);
    const videoNo = newVideoNo();
    const price = indexingPrice(probe.durationSeconds);
    const bucket = bucketOf(accountId);
    const name = safeFileName(file.name);
    const blob = `videos/${videoNo}/${name}`;
    await ctx.billing.charge(accountId, price, 'upload indexing', videoNo);
    try {
      await ctx.blobs.adopt(bucket, blob, file.tmpPath);
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
      await ctx.billing.refund(accountId, price, 'upload failed', videoNo);
      await ctx.blobs.delete(bucket, blob);
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
