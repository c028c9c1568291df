import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { ffprobe } from '../../common/media/ffprobe';
import { describeError } from '../../shared/errors';
import type { LibraryClient } from '../api/client';
import { LibraryApiError } from '../api/errors';
import { apiJobOutcome, type LibraryBlock } from '../api/job-outcome';
import type { LocalOriginals } from '../sync';
import type { Logger } from '../log';
import type { ClipRow, ClipsStore } from './clips-store';
import type { JobRow } from '../jobs/jobs-store';
import type { JobHandler, ClientJobOutcome } from '../jobs/client-job-queue';
import type { IdentityOf } from './export/clip-media';
import { planClipCut } from './cut-plan';
import { cut, cutRange, still } from './cutter';
import type { DownloadManager } from './download-manager';
import { reserveName, sanitizeFileName } from './filenames';

export interface ClipJobDeps {
  store: ClipsStore;
  originals: LocalOriginals;
  downloads: DownloadManager;
  client: () => LibraryClient | null;
  /** Where videos without a local original are downloaded to before cutting. */
  originalsDir: string;
  thumbsDir: string;
  logger: Logger;
  /** Pauses the queue the clips run in (a refused key or an empty balance: every download would fail). */
  pause: (reason: LibraryBlock) => void;
  notify: (row: ClipRow) => void;
  maxAttempts?: number;
  /** Codec, timecode and length of the source (a camera original: ProRes, MXF, MTS...); null when unreadable. */
  identityOf?: IdentityOf;
}

type Source = { type: 'ready'; path: string } | { type: 'wait' } | { type: 'fail'; error: string };

class ClipFailure extends Error {}

/**
 * Queue handler for kind 'clip' (target = clips.id): find the source (a local original of the video, else a download
 * through the API, waited for without spending attempts), cut it with ffmpeg, probe the result, take a thumbnail.
 */
export function clipHandler(d: ClipJobDeps): JobHandler {
  const maxAttempts = d.maxAttempts ?? 3;
  const log = d.logger.child({ module: 'clips' });
  const set = (id: number, state: ClipRow['state'], error: string | null = null): void => {
    const row = d.store.setState(id, state, error);
    if (row) d.notify(row);
  };
  return {
    kind: 'clip',
    concurrency: 1,
    maxAttempts,
    async run(job: JobRow, signal: AbortSignal): Promise<ClientJobOutcome> {
      const id = Number(job.target);
      const clip = d.store.get(id);
      if (!clip) return { type: 'failed', error: `clip ${job.target} no longer exists` };
      if (clip.state === 'ready') return { type: 'finished' };
      try {
        const source = await sourceOf(d, clip, signal);
        if (source.type === 'wait') {
          if (clip.state !== 'downloading') set(id, 'downloading');
          return { type: 'wait', delayMs: 1000 };
        }
        if (source.type === 'fail') {
          set(id, 'failed', source.error);
          return { type: 'failed', error: source.error };
        }
        set(id, 'cutting');
        const identity = (await d.identityOf?.(source.path)) ?? null;
        const duration =
          identity?.durationSeconds ?? (await ffprobe(source.path, { kind: 'storedVideo', signal })).durationSeconds;
        let range;
        try {
          range = cutRange(clip.start_s, clip.end_s, clip.handles_s, duration);
        } catch (err) {
          throw new ClipFailure(describeError(err));
        }
        await mkdir(clip.out_dir, { recursive: true });
        const out = clip.path ?? (await reserveName(clip.out_dir, outName(clip, source.path)));
        if (!clip.path) d.store.setOutput(id, out);
        const plan = await planClipCut(clip, source.path, range.from, identity, signal);
        await cut(source.path, out, range, clip.mode, clip.format, signal, plan);
        const result = await ffprobe(out, { kind: 'storedVideo', signal });
        await mkdir(d.thumbsDir, { recursive: true });
        const thumb = join(d.thumbsDir, `clip-${id}.jpg`);
        const thumbnailPath = await still(out, (result.durationSeconds ?? 0) / 2, thumb, 320, signal).then(
          () => thumb,
          (err: unknown) => (log.warn({ clipId: id, err: describeError(err) }, 'no thumbnail'), null),
        );
        const ready = d.store.ready(id, {
          duration: result.durationSeconds,
          fps: result.video?.fps ?? null,
          width: result.video?.width ?? null,
          height: result.video?.height ?? null,
          hasAudio: result.audio !== null,
          thumbnailPath,
        });
        log.info(
          { clipId: id, out, from: range.from, duration: range.duration, mode: clip.mode, plan: plan.reason },
          'clip cut',
        );
        d.notify(ready);
        return { type: 'finished' };
      } catch (err) {
        if (signal.aborted) throw err;
        const error = describeError(err);
        if (err instanceof ClipFailure) {
          set(id, 'failed', error);
          return { type: 'failed', error };
        }
        const outcome: ClientJobOutcome =
          err instanceof LibraryApiError ? apiJobOutcome(err, d.pause) : { type: 'retry', error };
        if (outcome.type !== 'retry') {
          set(id, outcome.type === 'failed' ? 'failed' : 'queued', error);
          return outcome;
        }
        set(id, job.attempts >= maxAttempts ? 'failed' : 'queued', error);
        return { type: 'retry', error };
      }
    },
  };
}

async function sourceOf(d: ClipJobDeps, clip: ClipRow, signal: AbortSignal): Promise<Source> {
  if (clip.source_path && existsSync(clip.source_path)) return { type: 'ready', path: clip.source_path };
  const local = d.originals.pathOf(clip.video_no);
  if (local) {
    d.store.setSource(clip.id, local, null);
    return { type: 'ready', path: local };
  }
  if (clip.download_id !== null) {
    const dl = d.downloads.get(clip.download_id);
    if (dl?.state === 'done' && dl.path && existsSync(dl.path)) {
      d.store.setSource(clip.id, dl.path, { bucket: dl.bucket, blob: dl.blob });
      return { type: 'ready', path: dl.path };
    }
    if (dl && (dl.state === 'queued' || dl.state === 'downloading')) return { type: 'wait' };
    if (dl && dl.state !== 'done')
      return { type: 'fail', error: `the download of the original ${dl.state}: ${dl.error ?? ''}`.trim() };
  }
  let address = clip.video_bucket && clip.video_blob ? { bucket: clip.video_bucket, blob: clip.video_blob } : null;
  const client = d.client();
  if (!address) {
    if (!client)
      return { type: 'fail', error: 'no local original of this video and no library service to download it from' };
    const meta = await client.getMetadata(clip.video_no, signal);
    if (!meta) return { type: 'fail', error: `the library has no video ${clip.video_no}` };
    address = { bucket: meta.video_bucket, blob: meta.video_blob };
  }
  if (!client)
    return { type: 'fail', error: 'no local original of this video and no library service to download it from' };
  const dl = await d.downloads.start({
    kind: 'video',
    bucket: address.bucket,
    blob: address.blob,
    videoNo: clip.video_no,
    destDir: d.originalsDir,
  });
  d.store.setDownload(clip.id, dl.id);
  if (dl.state === 'done' && dl.path && existsSync(dl.path)) {
    d.store.setSource(clip.id, dl.path, address);
    return { type: 'ready', path: dl.path };
  }
  return { type: 'wait' };
}

/** "<clip name or video name>_<start>-<end>.<format>", sanitised; the caller's file name when given. */
function outName(clip: ClipRow, source: string): string {
  const ext = `.${clip.format}`;
  if (clip.out_name) {
    const given = sanitizeFileName(clip.out_name, `clip-${clip.id}${ext}`);
    return extname(given).toLowerCase() === ext ? given : `${given}${ext}`;
  }
  const base = clip.video_name || basename(source);
  const stem = clip.name || base.slice(0, base.length - extname(base).length) || clip.video_no;
  const t = (s: number): string => s.toFixed(2).replace('.', 's');
  return sanitizeFileName(`${stem}_${t(clip.start_s)}-${t(clip.end_s)}${ext}`, `clip-${clip.id}${ext}`);
}
