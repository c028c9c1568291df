import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProbeError } from '../../../common/media/ffprobe';
import { probeWithTrustedDuration } from '../../../common/media/probe-duration';
import { PRICES_MICRO_USD, UPLOAD_LIMITS, type UploadedVideo } from '../../../shared/api-types';
import { bucketOf, type ServiceContext } from '../../context';
import { newVideoNo } from '../../library/videos';
import { admitNewMedia } from '../../library/admission';
import { ApiError, badRequest, success } from '../envelope';
import { DrainingFileSink } from '../draining-file-sink';
import { DRAIN_CAP, discard, drainParts, malformed, nextPart } from '../multipart-drain';
import { diskFullMessage } from '../storage-error';
import { accountOf } from './auth';
import { parseUploadFields, safeFileName, videoFieldsOf } from './form-fields';
import { ENVELOPE_CODES } from '../../../shared/api-types';

const ALLOWED_CODECS: readonly string[] = UPLOAD_LIMITS.codecs;

interface Received {
  tmpPath: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** Price of indexing a video: 0.5 USD per 1000 video minutes, by the second, at least one micro-dollar. */
export function indexingPrice(durationSeconds: number): number {
  return Math.max(1, Math.ceil((durationSeconds / 60) * PRICES_MICRO_USD.indexPerVideoMinute));
}

export function registerUpload(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/upload', async (request, reply) => {
    const account = accountOf(request);
    // Refuse before reading a byte when the balance cannot pay for even a minute of indexing.
    admitNewMedia(ctx, account.id, indexingPrice(60));
    if (!request.isMultipart()) throw badRequest('upload must be multipart/form-data with a file part');

    const fields = new Map<string, string[]>();
    let received: Received | undefined;
    // Iterated by hand so that after a refusal the rest of the body can still be read (see drainParts).
    const parts = request.parts()[Symbol.asyncIterator]();
    try {
      for (let next = await nextPart(parts); !next.done; next = await nextPart(parts)) {
        const part = next.value;
        if (part.type === 'file') {
          if (received) {
            await discard(part.file);
            throw badRequest('exactly one file part is allowed');
          }
          received = await receiveFile(ctx, part, request);
        } else {
          const value = typeof part.value === 'string' ? part.value : String(part.value);
          fields.set(part.fieldname, [...(fields.get(part.fieldname) ?? []), value]);
        }
      }
      if (!received) throw badRequest('file is required');
      const form = parseUploadFields(fields);
      // The container is whitelisted before ffprobe reads past the file's first bytes (media-input.ts): a playlist or
      // any other format that refers to other files is refused with the same answer, whatever it points at. The
      // duration priced is checked against every packet's timing (timeline.ts).
      const probe = await probeWithTrustedDuration(received.tmpPath, 'uploadVideo').catch((err: unknown) => {
        if (err instanceof ProbeError && err.refused) throw badRequest(`file is not accepted: ${err.message}`);
        throw badRequest(`file is not a readable video: ${err instanceof ProbeError ? err.message : 'unreadable'}`);
      });
      if (!probe.video) throw badRequest('file has no video stream');
      if (!ALLOWED_CODECS.includes(probe.video.codec)) {
        throw badRequest(`video codec ${probe.video.codec} is not supported; allowed: h264, h265, hevc, vp9`);
      }

      const folderId = ctx.folders.resolve(account.id, form.folder_id, form.unique_id);
      const videoNo = newVideoNo();
      const price = indexingPrice(probe.durationSeconds);
      const bucket = bucketOf(account.id);
      const name = safeFileName(received.name);
      const blob = `videos/${videoNo}/${name}`;
      ctx.billing.charge(account.id, price, 'upload indexing', videoNo);
      try {
        await ctx.blobs.adopt(bucket, blob, received.tmpPath);
        const row = ctx.videos.insert(
          {
            accountId: account.id,
            folderId,
            videoName: name,
            originalName: received.name,
            bucket,
            blob,
            contentType: received.contentType,
            size: received.size,
            sha256: received.sha256,
            duration: probe.durationSeconds,
            width: probe.video.width,
            height: probe.video.height,
            fps: probe.video.fps,
            codec: probe.video.codec,
            ...videoFieldsOf(form),
          },
          videoNo,
        );
        ctx.jobs.enqueue('index', videoNo, { videoId: row.id }, ctx.config.indexer.maxAttempts);
        const data: UploadedVideo = {
          videoNo,
          videoName: name,
          videoStatus: 'UNPARSE',
          uploadTime: String(row.created_at),
        };
        return reply.send(success(data));
      } catch (err) {
        ctx.billing.refund(account.id, price, 'upload failed', videoNo);
        await ctx.blobs.delete(bucket, blob);
        throw err;
      }
    } catch (err) {
      // Answer after reading the rest of the body, as HTTP clients expect; past a cap, close instead of reading gigabytes.
      if (!(await drainParts(parts))) void reply.header('connection', 'close');
      throw err;
    } finally {
      if (received) await rm(received.tmpPath, { force: true });
    }
  });
}

async function receiveFile(ctx: ServiceContext, part: MultipartFile, request: FastifyRequest): Promise<Received> {
  if (part.fieldname !== 'file') {
    await discard(part.file);
    throw badRequest(`the file part must be named "file", not "${part.fieldname}"`);
  }
  const name = part.filename || 'video';
  const ext = extname(name).toLowerCase();
  if (!(UPLOAD_LIMITS.extensions as readonly string[]).includes(ext)) {
    await discard(part.file);
    throw badRequest(`file extension ${ext || '(none)'} is not supported; allowed: .mp4, .avi, .mkv, .mov`);
  }
  if (!part.mimetype.toLowerCase().startsWith('video/')) {
    await discard(part.file);
    throw badRequest(`file Content-Type must start with video/, got ${part.mimetype || '(none)'}`);
  }
  const tmpPath = join(ctx.tmpDir, `upload-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}${ext}`);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(part.file, meter, new DrainingFileSink(tmpPath, DRAIN_CAP), { signal: abortOnClose(request) });
  } catch (err) {
    await rm(tmpPath, { force: true });
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || part.file.truncated) {
      throw badRequest('file is larger than the 3 GB limit');
    }
    const full = diskFullMessage(err);
    if (full) throw new ApiError(507, ENVELOPE_CODES.error, full);
    throw malformed(err);
  }
  if (part.file.truncated) {
    await rm(tmpPath, { force: true });
    throw badRequest('file is larger than the 3 GB limit');
  }
  if (size === 0) {
    await rm(tmpPath, { force: true });
    throw badRequest('file is empty');
  }
  return { tmpPath, name, contentType: part.mimetype, size, sha256: hash.digest('hex') };
}

function abortOnClose(request: FastifyRequest): AbortSignal {
  const controller = new AbortController();
  request.raw.once('close', () => {
    if (!request.raw.complete) controller.abort();
  });
  return controller.signal;
}
