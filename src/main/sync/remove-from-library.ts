import { AppError, describeError } from '../../shared/errors';
import type { LibraryClient } from '../api/client';
import { isLibraryOffline, libraryErrorCode } from '../api/app-errors';
import { LibraryApiError } from '../api/errors';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { JobsStore } from '../jobs/jobs-store';
import { SyncStore } from '../store/sync-store';

/** The reason a removed file carries: it stays on disk and is not uploaded again (Retry on it adds it back). */
export const REMOVED_REASON = 'Removed from the library; the file on disk is kept and not uploaded again';

/** Only settled videos: while a content uploads or indexes, its jobs still write to it. */
const REMOVABLE_STATES: readonly string[] = ['indexed', 'index_failed'];

/**
 * The editor's "Remove from library": the library service deletes the file's video, then every local file holding
 * that content stops being tracked (state `skipped` with REMOVED_REASON) and the content row goes, so nothing links
 * to the deleted video nor uploads it again. Local files are never touched. The service is asked first: offline, or
 * refused, nothing changes here.
 */
export async function removeFromLibrary(
  o: { db: Db; client: LibraryClient | undefined; logger: Logger },
  fileId: number,
): Promise<{ videoNo: string | null; untracked: number }> {
  const store = new SyncStore(o.db);
  const file = store.file(fileId);
  if (!file) throw new AppError('not_found', `No file ${fileId}.`);
  const holds = file.state === 'linked' || file.state === 'deleted';
  const content = file.hash && holds ? store.content(file.hash) : undefined;
  const videoNo = content?.video_no;
  if (file.state === 'deleted' && !videoNo) {
    // Gone from disk and never in the library: only its row is left to forget.
    store.deleteFile(file.id);
    o.logger.info({ fileId, path: file.path }, 'forgot a deleted file that was never in the library');
    return { videoNo: null, untracked: 0 };
  }
  if (!content || !videoNo) throw new AppError('conflict', 'This file is not in the library.');
  if (!REMOVABLE_STATES.includes(content.state))
    throw new AppError('conflict', 'The video is still being uploaded or indexed; remove it once that ends.');
  if (!o.client)
    throw new AppError(
      'offline',
      'The library service is not connected, so nothing was removed. Try again once it is connected.',
    );
  try {
    await o.client.deleteVideos([videoNo]);
  } catch (err) {
    o.logger.warn({ err: describeError(err), videoNo }, 'remove from library failed');
    if (isLibraryOffline(err)) {
      throw new AppError(
        'offline',
        'The library service could not be reached, so nothing was removed. Try again once it is connected.',
        { cause: err },
      );
    }
    throw new AppError(
      err instanceof LibraryApiError ? libraryErrorCode(err.reason) : 'internal',
      `The library service did not remove the video, so nothing was changed: ${describeError(err)}`,
      { cause: err },
    );
  }
  const jobs = new JobsStore(o.db);
  let untracked = 0;
  store.transaction(() => {
    for (const f of store.filesWithHash(content.hash)) {
      store.setFileState(f.id, 'skipped', REMOVED_REASON);
      untracked++;
    }
    // Rows of names gone from disk that held it go with the video: nothing is left to play or remove.
    o.db.prepare("DELETE FROM files WHERE hash = ? AND state = 'deleted'").run(content.hash);
    jobs.cancelOpen('upload', content.hash);
    jobs.cancelOpen('poll', content.hash);
    o.db.prepare('DELETE FROM contents WHERE hash = ?').run(content.hash);
  });
  o.logger.info({ videoNo, fileId, untracked }, 'removed from the library; local files kept and no longer uploaded');
  return { videoNo, untracked };
}
