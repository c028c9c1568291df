import type { FileStatus, FileView, WatchFolderView } from '../../shared/contract/sync';
import { unreachable } from '../../shared/errors';
import { plainReason } from '../../shared/plain-reasons';
import type { ContentRow, FileRow, WatchFolderRow } from '../store/sync-rows';

/** The status the UI shows for a file: its own state, or its content's once it is linked to one. */
export function fileStatus(file: FileRow, content: ContentRow | undefined): FileStatus {
  switch (file.state) {
    case 'pending':
      return 'waiting';
    case 'skipped':
      return 'skipped';
    case 'deleted':
      return 'deleted';
    case 'linked':
      if (!content) return 'waiting';
      return content.state;
    default:
      throw unreachable(file.state);
  }
}

export function fileView(file: FileRow, content: ContentRow | undefined, firstFileId?: number): FileView {
  const status = fileStatus(file, content);
  const duplicateOf =
    content?.found_existing === true
      ? `library:${content.video_no ?? ''}`
      : firstFileId !== undefined && firstFileId !== file.id
        ? `file:${firstFileId}`
        : null;
  const raw = file.state === 'linked' ? (content?.reason ?? null) : file.reason;
  const plain = raw === null ? null : plainReason(raw);
  return {
    id: file.id,
    path: file.path,
    status,
    reason: plain?.text ?? null,
    details: plain?.details ?? null,
    paused: file.paused,
    size: file.size,
    hash: file.hash,
    videoNo: file.state === 'linked' || file.state === 'deleted' ? (content?.video_no ?? null) : null,
    duplicateOf,
    indexProgress: content?.progress ?? 0,
    duration: file.duration,
    width: file.width,
    height: file.height,
    fps: file.fps,
    codec: file.codec,
    camera: file.camera,
    takenAt: file.taken_at,
  };
}

export function watchFolderView(row: WatchFolderRow): WatchFolderView {
  return {
    id: row.id,
    path: row.path,
    folderId: row.folder_id,
    folderName: row.folder_name,
    tags: row.tags,
    ignore: row.ignore,
    polling: row.polling,
    stoppedAt: row.stopped_at,
  };
}
