import { basename } from 'node:path';
import type { VideoDetail } from '../../shared/contract/library';
import { AppError } from '../../shared/errors';
import type { LibraryClient } from '../api/client';
import type { LocalOriginals } from '../sync';
import type { OriginalIdentities } from '../media/identities';
import { playbackOf, sourceIdentity } from '../media/playback';
import type { Db } from '../store/database';

/** One library video as the player needs it: its metadata and where a local original is. */
export async function videoDetail(
  client: LibraryClient,
  originals: LocalOriginals,
  videoNo: string,
  local: { db: Db; identities: OriginalIdentities },
): Promise<VideoDetail> {
  const m = await client.getMetadata(videoNo);
  if (!m) throw new AppError('not_found', `the library has no video ${videoNo}`);
  const localPath = originals.pathOf(m.videoNo);
  const identity = localPath ? await local.identities.identityOf(localPath) : null;
  return {
    videoNo: m.videoNo,
    // The file's name now (it may have been renamed since the upload), else the name it was uploaded under.
    name: localPath ? basename(localPath) : m.original_name || m.video_name,
    status: m.status,
    progress: m.progress,
    failReason: m.fail_reason,
    duration: m.duration,
    width: m.width,
    height: m.height,
    fps: m.fps,
    codec: m.codec,
    cameraModel: m.camera_model,
    datetimeTaken: m.datetime_taken,
    tags: m.tags.filter((t) => !t.startsWith('sha256:')),
    localPath,
    original: { bucket: m.video_bucket, blob: m.video_blob, bytes: Math.round(m.size) },
    source: sourceIdentity(identity),
    playback: playbackOf(local.db, m.videoNo, localPath, identity),
  };
}
