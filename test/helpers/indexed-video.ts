import { z } from 'zod';
import type { Sql } from '../../src/server/storage/sql';

const idRow = z.object({ id: z.number().int() });
let videos = 0;

export interface IndexedVideo {
  videoId: number;
  videoNo: string;
  /** The segments' ids, by index. */
  segmentIds: number[];
}

/**
 * An indexed (PARSE) video of the account with `segments` segments, each with a keyframe, written as rows on either
 * engine: what the indexer leaves, without running it.
 */
export async function indexedVideo(sql: Sql, accountId: number, segments: number): Promise<IndexedVideo> {
  const folder = idRow.parse(
    await sql.get("INSERT INTO folders (account_id, name, created_at) VALUES (?, 'f', 0) RETURNING id", accountId),
  );
  const videoNo = `IV${++videos}x${accountId}`;
  const { id: videoId } = idRow.parse(
    await sql.get(
      `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size, sha256, created_at)
       VALUES (?, ?, ?, ?, 'clip.mp4', 'PARSE', ?, 'video/mp4', 1, 'x', 0) RETURNING id`,
      videoNo,
      accountId,
      folder.id,
      `${videoNo}.mp4`,
      `reelsync-${accountId}`,
    ),
  );
  const segmentIds: number[] = [];
  for (let i = 0; i < segments; i++) {
    const row = await sql.get(
      'INSERT INTO segments (video_id, idx, start_time, end_time, keyframe_blob) VALUES (?, ?, ?, ?, ?) RETURNING id',
      videoId,
      i,
      i,
      i + 1,
      `keyframes/${videoNo}/${i}.jpg`,
    );
    segmentIds.push(idRow.parse(row).id);
  }
  return { videoId, videoNo, segmentIds };
}
