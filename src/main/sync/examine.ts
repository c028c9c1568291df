import { stat } from 'node:fs/promises';
import { toUploadMeta } from '../media/exif';
import type { JobRow } from '../jobs/jobs-store';
import type { SyncDeps } from './context';
import { sha256File } from './hasher';
import type { JobHandler, ClientJobOutcome } from '../jobs/client-job-queue';
import { decideVideo } from './validator';

/**
 * `examine` jobs (target: file id): wait until the file is stable, decide (upload, proxy or skip), hash it (unless
 * size and mtime are those already hashed), read its capture metadata, then link it to its content row, creating the
 * content and its upload job (or its proxy job, for a camera original the library refuses) when the content is new.
 */
export function examineHandler(deps: SyncDeps): JobHandler {
  const log = deps.logger.child({ module: 'examine' });
  return {
    kind: 'examine',
    concurrency: deps.config.examineConcurrency,
    maxAttempts: 5,
    async run(job: JobRow, signal: AbortSignal): Promise<ClientJobOutcome> {
      const { store } = deps;
      const id = Number(job.target);
      const file = store.file(id);
      if (!file || file.state === 'deleted') return { type: 'finished' };
      let info;
      try {
        info = await stat(file.path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
          store.markDeleted(file.path);
          deps.notify.fileChanged(id);
          return { type: 'finished' };
        }
        throw err;
      }
      const now = Date.now();
      if (info.size !== file.size || Math.trunc(info.mtimeMs) !== file.mtime_ms) {
        store.observe(id, info.size, info.mtimeMs, now);
        return { type: 'wait', delayMs: deps.config.stableMs };
      }
      // Every write moves mtime, so an mtime older than stableMs (and not in the future) already proves stability.
      const stableFor = Math.max(now - file.observed_at, file.mtime_ms <= now ? now - file.mtime_ms : 0);
      if (stableFor < deps.config.stableMs) return { type: 'wait', delayMs: deps.config.stableMs - stableFor };

      const verdict = await decideVideo(file.path, { signal });
      if (verdict.action === 'skip') {
        store.setFileState(id, 'skipped', verdict.reason);
        log.info({ fileId: id, path: file.path, reason: verdict.reason }, 'skipped');
        deps.notify.fileChanged(id);
        return { type: 'finished' };
      }

      let hash = file.hash;
      if (!(hash && file.hashed_size === info.size && file.hashed_mtime_ms === Math.trunc(info.mtimeMs))) {
        hash = await sha256File(file.path, { signal });
        const after = await stat(file.path);
        if (after.size !== info.size || after.mtimeMs !== info.mtimeMs) {
          store.observe(id, after.size, after.mtimeMs);
          return { type: 'wait', delayMs: deps.config.stableMs };
        }
      }
      const previous = file.hash;
      const meta = toUploadMeta(await deps.metadata.read(file.path));
      const video = verdict.action === 'upload' ? verdict.video : verdict.original;
      const media = {
        duration: video.duration,
        width: video.width,
        height: video.height,
        fps: video.fps,
        codec: video.codec,
        camera: meta.camera_model ?? null,
        takenAt: meta.datetime_taken ?? null,
      };
      const watch = store.watchFolder(file.watch_id);
      const created = store.transaction(() => {
        const isNew = store.createContent({
          hash,
          size: info.size,
          folderId: watch?.folder_id ?? null,
          tags: watch?.tags ?? [],
          meta,
        });
        store.setFileHash(id, hash, info.size, info.mtimeMs);
        store.setFileMedia(id, media);
        store.setFileState(id, 'linked', null);
        // A rename or move: the old name's row (left `deleted`) is this file, not a second one.
        store.dropMovedGhosts(hash);
        if (previous && previous !== hash) store.supersede(previous, hash);
        // The content row stays keyed by the original's hash: a proxy uploads in its place, tagged with that hash.
        if (isNew) deps.jobs.enqueue(verdict.action === 'proxy' ? 'proxy' : 'upload', hash, 0);
        return isNew;
      });
      log.info(
        {
          fileId: id,
          hash,
          newContent: created,
          proxy: verdict.action === 'proxy' ? verdict.why : undefined,
          superseded: previous && previous !== hash ? previous : undefined,
        },
        'examined',
      );
      deps.notify.fileChanged(id);
      if (created) deps.wake();
      return { type: 'finished' };
    },
  };
}
