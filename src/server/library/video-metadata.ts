import { z } from 'zod';
import type { VideoMetadata } from '../../shared/api-types';
import type { ServiceContext } from '../context';
import type { VideoRow } from './videos';

const missingEngines = z
  .string()
  .transform((text): unknown => JSON.parse(text))
  .pipe(z.array(z.object({ analyzer: z.string(), reason: z.string() })));

/** The answers' metadata of videos, in their order; tags and public folder ids read once for all of them. */
export async function videoMetadata(
  ctx: Pick<ServiceContext, 'videos' | 'folders'>,
  rows: readonly VideoRow[],
): Promise<VideoMetadata[]> {
  const tags = await ctx.videos.tagsOf(rows.map((r) => r.id));
  const folderIds = await ctx.folders.publicIds(rows.map((r) => r.folder_id));
  return rows.map((row) => ({
    video_no: row.video_no,
    videoNo: row.video_no,
    video_name: row.video_name,
    original_name: row.original_name,
    status: row.status,
    progress: Math.round(row.progress * 10) / 10,
    fail_reason: row.fail_reason,
    duration: row.duration,
    size: row.size,
    width: row.width,
    height: row.height,
    fps: row.fps,
    codec: row.codec,
    create_time: String(row.created_at),
    datetime_taken: row.datetime_taken,
    camera_model: row.camera_model,
    latitude: row.latitude,
    longitude: row.longitude,
    tags: tags.get(row.id) ?? [],
    folder_id: folderIds.get(row.folder_id) ?? row.folder_id,
    video_bucket: row.bucket,
    video_blob: row.blob ?? '',
    poster_bucket: row.poster_blob ? row.bucket : null,
    poster_blob: row.poster_blob,
    missing_engines: missingEngines.parse(row.missing_engines),
  }));
}
