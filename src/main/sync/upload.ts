import { stat } from 'node:fs/promises';
import { LibraryApiError } from '../api/errors';
import { apiJobOutcome } from '../api/job-outcome';
import type { JobRow } from '../jobs/jobs-store';
import type { FileRow } from '../store/sync-rows';
import { hashTag, type SyncDeps } from './context';
import type { JobHandler, ClientJobOutcome } from '../jobs/client-job-queue';
import type { UploadResult } from '../../shared/contract/sync';

/** An API failure as a queue outcome (src/main/api/job-outcome.ts); balance and key problems pause the whole queue. */
export function outcomeOf(err: unknown, deps: Pick<SyncDeps, 'pauseQueue'>): ClientJobOutcome {
  if (!(err instanceof LibraryApiError)) throw err;
  return apiJobOutcome(err, (reason) => deps.pauseQueue(reason));
}

/**
 * `upload` jobs (target: content hash). Before a second attempt (the first may have reached the service before a
 * crash or a lost answer), the library is asked for a video carrying the hash tag, so nothing is uploaded twice.
 */
export function uploadHandler(deps: SyncDeps): JobHandler {
  const log = deps.logger.child({ module: 'upload' });
  return {
    kind: 'upload',
    concurrency: deps.config.uploadConcurrency,
    maxAttempts: 10,
    async run(job: JobRow, signal: AbortSignal): Promise<ClientJobOutcome> {
      const { store } = deps;
      const hash = job.target;
      const content = store.content(hash);
      if (!content || content.state === 'cancelled') return { type: 'finished' };
      const jlog = log.child({ hash, jobId: job.id });
      const started = Date.now();
      let path = store.filesWithHash(hash)[0]?.path ?? '';
      let sent = 0;
      const finished = (result: UploadResult, extra: { error?: string; videoNo?: string } = {}): void =>
        deps.history.record({ hash, path, bytes: sent, ms: Date.now() - started, result, ...extra });
      if (content.video_no) {
        deps.jobs.enqueue('poll', hash, 0);
        return { type: 'finished' };
      }
      try {
        if (job.attempts > 1) {
          const found = await deps.client.listVideos({ tag: hashTag(hash), page: 1, size: 1 }, signal);
          const existing = found.videos[0];
          if (existing) {
            jlog.info({ videoNo: existing.videoNo }, 'found the video already in the library');
            store.setContentVideo(hash, existing.videoNo, true);
            if (deps.proxies.store.get(hash)) deps.proxies.store.uploaded(hash, existing.videoNo);
            finished('found', { videoNo: existing.videoNo });
            deps.jobs.enqueue('poll', hash, 0);
            deps.notify.contentChanged(hash);
            return { type: 'finished' };
          }
        }
        const source = await pickSource(store.filesWithHash(hash));
        const proxy = deps.proxies.store.get(hash);
        if (proxy && proxy.state !== 'ready') {
          // The library refuses the original: its proxy must be made (again) before anything is sent.
          deps.jobs.enqueue('proxy', hash, 0);
          deps.wake();
          return { type: 'finished' };
        }
        if (!source) {
          store.setContentState(hash, 'failed', 'no local file with this content is left to upload');
          finished('failed', { error: 'no local file with this content is left to upload' });
          deps.notify.contentChanged(hash);
          return { type: 'failed', error: 'no local copy' };
        }
        path = source.path;
        const folderId = content.folder_id ?? (await resolveFolder(deps, source.watch_id, signal));
        store.setContentState(hash, 'uploading');
        deps.notify.contentChanged(hash);
        const tags = [...content.tags.slice(0, 18), hashTag(hash)];
        const video = await deps.client.upload(
          // A proxy goes up from the cache under the original's stem, in its place (the original's hash tag).
          proxy?.path ?? source.path,
          proxy?.size ?? source.size,
          {
            folder_id: folderId ?? undefined,
            tags,
            camera_model: content.meta.camera_model,
            latitude: content.meta.latitude,
            longitude: content.meta.longitude,
            datetime_taken: content.meta.datetime_taken,
          },
          {
            signal,
            sha256: proxy?.proxy_sha256 ?? hash,
            onProgress: (p) => {
              sent = p.bytes;
              deps.notify.progress({ fileId: source.id, path: source.path, hash, ...p });
            },
          },
        );
        sent = proxy?.size ?? source.size;
        store.transaction(() => {
          finished('uploaded', { videoNo: video.videoNo });
          store.setContentVideo(hash, video.videoNo, false);
          if (proxy) deps.proxies.store.uploaded(hash, video.videoNo);
          deps.jobs.enqueue('poll', hash, Date.now() + deps.config.pollMinMs);
        });
        jlog.info({ videoNo: video.videoNo, path: source.path, proxy: proxy !== undefined }, 'uploaded');
        deps.notify.contentChanged(hash);
        deps.wake();
        return { type: 'finished' };
      } catch (err) {
        if (signal.aborted) throw err;
        const outcome = outcomeOf(err, deps);
        const reason = err instanceof Error ? err.message : String(err);
        if (outcome.type === 'failed') store.setContentState(hash, 'failed', reason);
        else store.setContentState(hash, 'queued', reason);
        const final = outcome.type === 'failed' || (outcome.type === 'retry' && job.attempts >= 10);
        if (outcome.type === 'retry' && job.attempts >= 10) store.setContentState(hash, 'failed', reason);
        finished(final ? 'failed' : 'retrying', { error: reason });
        deps.notify.contentChanged(hash);
        return outcome;
      }
    },
  };
}

/** The first linked file whose size and mtime are still those that were hashed. */
export async function pickSource(files: FileRow[]): Promise<FileRow | undefined> {
  for (const f of files) {
    try {
      const info = await stat(f.path);
      if (info.size === f.hashed_size && Math.trunc(info.mtimeMs) === f.hashed_mtime_ms) return f;
    } catch {
      // gone: try the next copy
    }
  }
  return undefined;
}

/** A watch folder given by library folder name gets its folder_id on first use (found by name, or created). */
async function resolveFolder(deps: SyncDeps, watchId: number, signal: AbortSignal): Promise<number | null> {
  const watch = deps.store.watchFolder(watchId);
  if (!watch) return null;
  if (watch.folder_id !== null) return watch.folder_id;
  if (!watch.folder_name) return null;
  const existing = (await deps.client.listFolders(signal)).find((f) => f.name === watch.folder_name);
  const folder = existing ?? (await deps.client.createFolder(watch.folder_name, signal));
  deps.store.setWatchFolderId(watch.id, folder.folder_id);
  return folder.folder_id;
}
