import { ffprobe, ProbeError } from '../../common/media/ffprobe';
import type { MetadataReader } from '../media/exif';
import { toUploadMeta } from '../media/exif';
import type { Logger } from '../log';
import type { SyncStore } from '../store/sync-store';
import { displaySize } from './validator';

/**
 * Files linked before client migration 6 have no media facts: read them once (ffprobe, capture metadata), one file at
 * a time in the background, without touching the file's state (a file that no longer probes simply keeps its blanks).
 * Returns how many files got their facts.
 */
export async function backfillMedia(o: {
  store: SyncStore;
  metadata: MetadataReader;
  logger: Logger;
  signal: AbortSignal;
  onFile?: (id: number) => void;
}): Promise<number> {
  const log = o.logger.child({ module: 'media-backfill' });
  let done = 0;
  for (const id of o.store.linkedFilesWithoutMedia()) {
    if (o.signal.aborted) break;
    const file = o.store.file(id);
    if (!file) continue;
    try {
      const probe = await ffprobe(file.path, { kind: 'uploadVideo', signal: o.signal });
      if (!probe.video) continue;
      const meta = toUploadMeta(await o.metadata.read(file.path));
      o.store.setFileMedia(id, {
        duration: probe.durationSeconds,
        ...displaySize(probe.video),
        fps: probe.video.fps,
        codec: probe.video.codec.toLowerCase(),
        camera: meta.camera_model ?? null,
        takenAt: meta.datetime_taken ?? null,
      });
      done++;
      o.onFile?.(id);
    } catch (err) {
      if (o.signal.aborted) break;
      if (!(err instanceof ProbeError)) log.warn({ fileId: id, err }, 'could not read the media facts');
    }
  }
  if (done > 0) log.info({ files: done }, 'media facts read for files linked before they were stored');
  return done;
}
