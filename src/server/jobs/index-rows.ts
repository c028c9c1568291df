import type { CaptureMetadata } from '../../common/media/exif';
import type { Sql, SqlDialect } from '../storage/sql';
import { payloadField } from './job-rows';

/** The account an index job indexes for: its lane in the job queue, so accounts share the indexer fairly. */
export function indexLaneSql(dialect: SqlDialect): string {
  return `(SELECT account_id FROM videos WHERE videos.id = CAST(${payloadField(dialect, 'videoId')} AS BIGINT))`;
}

/** The library row's capture metadata where the upload gave none; what the upload gave wins. */
export async function storeCaptureMetadata(sql: Sql, videoId: number, found: CaptureMetadata): Promise<void> {
  await sql.run(
    `UPDATE videos SET camera_model = COALESCE(camera_model, ?), datetime_taken = COALESCE(datetime_taken, ?),
       latitude = CASE WHEN latitude IS NULL THEN ? ELSE latitude END,
       longitude = CASE WHEN latitude IS NULL THEN ? ELSE longitude END
     WHERE id = ?`,
    found.cameraModel ?? null,
    found.datetimeTaken ?? null,
    found.latitude ?? null,
    found.longitude ?? null,
    videoId,
  );
}

/** Indexing ended without success: the video becomes FAIL with the cause. */
export async function markIndexFailed(sql: Sql, videoId: number, reason: string): Promise<void> {
  await sql.run(
    "UPDATE videos SET status = 'FAIL', fail_reason = ?, indexed_at = ? WHERE id = ?",
    reason,
    Date.now(),
    videoId,
  );
}
