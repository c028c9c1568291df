import { lstat, mkdir, open, rm } from 'node:fs/promises';
import { describeError, unreachable } from '../../shared/errors';
import type { BlobDownloader } from '../api/download';
import { LibraryApiError } from '../api/errors';
import { apiJobOutcome, type LibraryBlock } from '../api/job-outcome';
import { ProgressMeter } from '../api/progress';
import type { Logger } from '../log';
import type { DownloadRow, DownloadStore } from './download-store';
import type { JobRow } from '../jobs/jobs-store';
import type { JobHandler, ClientJobOutcome } from '../jobs/client-job-queue';
import { placeWithoutClobber, safeJoin, sanitizeFileName } from './filenames';

export interface DownloadJobDeps {
  store: DownloadStore;
  downloader: () => BlobDownloader | null;
  logger: Logger;
  /** Pauses the queue the downloads run in (a refused key or an empty balance: every download would fail). */
  pause: (reason: LibraryBlock) => void;
  /** Every state change and progress tick (at most every 250 ms). */
  notify: (row: DownloadRow, live?: { rate: number; etaSeconds: number | null }) => void;
  maxAttempts?: number;
  concurrency?: number;
}

/**
 * The part file of a download: hidden, in its destination folder (same file system, so the final move is a link), under
 * the random name kept in its row.
 */
export function partPathOf(row: Pick<DownloadRow, 'dest_dir' | 'part_name'>): string {
  return safeJoin(row.dest_dir, row.part_name);
}

/**
 * The part file's size to resume from, creating it exclusively (0600) when there is none. Anything but a regular file
 * at its name (a symlink or a folder someone planted in a shared folder) is refused: never written through.
 */
async function preparePart(path: string): Promise<number> {
  try {
    const fh = await open(path, 'wx', 0o600);
    await fh.close();
    return 0;
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
  }
  const info = await lstat(path);
  if (!info.isFile())
    throw new PartRefused(
      `refusing the part file ${path}: it is not a regular file (a symlink or folder was put in its place)`,
    );
  return info.size;
}

class PartRefused extends Error {}

/**
 * Queue handler for kind 'download' (target = downloads.id). Resumes from the part file's size with a Range; a server
 * that ignores it gets a clean restart; "Resource does not exist" marks the row gone with no retry; other API failures
 * as src/main/api/job-outcome.ts says (a refused key or an empty balance pause the queue, the row stays queued).
 */
export function downloadHandler(d: DownloadJobDeps): JobHandler {
  const maxAttempts = d.maxAttempts ?? 8;
  const log = d.logger.child({ module: 'downloads' });
  return {
    kind: 'download',
    concurrency: d.concurrency ?? 2,
    maxAttempts,
    async run(job: JobRow, signal: AbortSignal): Promise<ClientJobOutcome> {
      const id = Number(job.target);
      const row = d.store.get(id);
      if (!row) return { type: 'failed', error: `download ${job.target} no longer exists` };
      switch (row.state) {
        case 'done':
        case 'cancelled':
          return { type: 'finished' };
        case 'gone':
          return { type: 'failed', error: row.error ?? 'Resource does not exist' };
        case 'queued':
        case 'downloading':
        case 'failed':
          break;
        default:
          throw unreachable(row.state);
      }
      const downloader = d.downloader();
      if (!downloader) return { type: 'wait', delayMs: 30_000 };
      await mkdir(row.dest_dir, { recursive: true });
      const part = partPathOf(row);
      let offset: number;
      try {
        offset = await preparePart(part);
      } catch (err) {
        if (!(err instanceof PartRefused)) throw err;
        const failed = d.store.setState(id, 'failed', err.message);
        if (failed) d.notify(failed);
        return { type: 'failed', error: err.message };
      }
      let meter: ProgressMeter | null = null;
      let base = offset;
      try {
        const res = await downloader.fetchTo(row.bucket, row.blob, part, {
          offset,
          expectedTotal: offset > 0 ? row.total : null,
          signal,
          onStart: (info) => {
            base = info.offset;
            meter = new ProgressMeter(info.total === null ? 0 : info.total - info.offset);
            d.store.started(id, {
              fileName: info.fileName,
              total: info.total,
              resumed: info.offset > 0,
              bytes: info.offset,
            });
            log.info(
              { downloadId: id, offset: info.offset, total: info.total },
              info.offset > 0 ? 'download resumed' : 'download started',
            );
            notifyRow(d, id, { rate: 0, etaSeconds: null });
          },
          onBytes: (n) => {
            const p = meter?.add(n);
            if (!p) return;
            d.store.progress(id, base + p.bytes);
            notifyRow(d, id, { rate: p.rate, etaSeconds: p.etaSeconds });
          },
        });
        switch (res.type) {
          case 'complete': {
            const current = d.store.get(id);
            const name = sanitizeFileName(current?.file_name ?? res.fileName ?? row.blob, `${row.kind}-${id}`);
            const path = await placeWithoutClobber(part, row.dest_dir, name);
            const done = d.store.done(id, path, res.bytes);
            log.info({ downloadId: id, path, bytes: res.bytes, resumed: res.resumed }, 'download finished');
            d.notify(done);
            return { type: 'finished' };
          }
          case 'restart':
            d.store.restarted(id, res.reason);
            log.info({ downloadId: id, reason: res.reason }, 'download restarts from the beginning');
            return retry(d, id, job, maxAttempts, res.reason);
          case 'gone': {
            await rm(part, { force: true });
            const gone = d.store.setState(id, 'gone', res.message);
            if (gone) d.notify(gone);
            return { type: 'failed', error: res.message };
          }
          case 'error':
            return fromApiError(d, id, job, maxAttempts, res.error);
          default:
            throw unreachable(res);
        }
      } catch (err) {
        if (signal.aborted) {
          if (d.store.get(id)?.state === 'cancelled') await rm(part, { force: true });
          else notifyRow(d, id);
          throw err;
        }
        if (err instanceof LibraryApiError) return fromApiError(d, id, job, maxAttempts, err);
        return retry(d, id, job, maxAttempts, describeError(err));
      }
    },
  };
}

function notifyRow(d: DownloadJobDeps, id: number, live?: { rate: number; etaSeconds: number | null }): void {
  const row = d.store.get(id);
  if (row) d.notify(row, live);
}

function fromApiError(
  d: DownloadJobDeps,
  id: number,
  job: JobRow,
  maxAttempts: number,
  err: LibraryApiError,
): ClientJobOutcome {
  const outcome = apiJobOutcome(err, d.pause);
  if (outcome.type === 'retry') return retry(d, id, job, maxAttempts, err.message);
  const row = d.store.setState(id, outcome.type === 'failed' ? 'failed' : 'queued', err.message);
  if (row) d.notify(row);
  return outcome;
}

function retry(d: DownloadJobDeps, id: number, job: JobRow, maxAttempts: number, error: string): ClientJobOutcome {
  const last = job.attempts >= maxAttempts;
  const row = d.store.setState(id, last ? 'failed' : 'queued', error);
  if (row) d.notify(row);
  return { type: 'retry', error };
}
