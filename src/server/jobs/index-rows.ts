import type { CaptureMetadata } from '../../common/media/exif';
import type { Db } from '../storage/db';

/** The account an index job indexes for: its lane in the job queue, so accounts share the indexer fairly. */
export const INDEX_LANE_SQL =
  "(SELECT account_id FROM videos WHERE videos.id = json_extract(jobs.payload, '$.videoId'))";

/** The library row's capture metadata where the upload gave none; what the upload gave wins. */
export function storeCaptureMetadata(db: Db, videoId: number, found: CaptureMetadata): void {
  db.prepare(
    `UPDATE videos SET camera_model = COALESCE(camera_model, ?), datetime_taken = COALESCE(datetime_taken, ?),
       latitude = CASE WHEN latitude IS NULL THEN ? ELSE latitude END,
       longitude = CASE WHEN latitude IS NULL THEN ? ELSE longitude END
     WHERE id = ?`,
  ).run(
    found.cameraModel ?? null,
    found.datetimeTaken ?? null,
    found.latitude ?? null,
    found.longitude ?? null,
    videoId,
  );
}

/** Indexing ended without success: the video becomes FAIL with the cause. */
export function markIndexFailed(db: Db, videoId: number, reason: string): void {
  db.prepare("UPDATE videos SET status = 'FAIL', fail_reason = ?, indexed_at = ? WHERE id = ?").run(
    reason,
    Date.now(),
    videoId,
  );
}
