import { z } from 'zod';
import type { NewVideo } from '../../src/server/library/videos';
import type { Sql } from '../../src/server/storage/sql';

let accounts = 0;

/** A new account row (every library row belongs to one); its id. */
export async function newAccount(sql: Sql): Promise<number> {
  const row = await sql.get(
    "INSERT INTO accounts (name, webhook_secret, created_at) VALUES (?, 'secret', ?) RETURNING id",
    `account-${++accounts}`,
    Date.now(),
  );
  return z.object({ id: z.number().int() }).parse(row).id;
}

/** A video to insert with `Videos.insert`: a stored 12.5 s H.264 clip in `folderId`, no capture details or tags. */
export function newVideo(accountId: number, folderId: number, over: Partial<NewVideo> = {}): NewVideo {
  const names = { videoName: 'clip.mp4', originalName: 'clip.mp4', bucket: `reelsync-${accountId}` };
  const file = { blob: 'videos/x/clip.mp4', contentType: 'video/mp4', size: 1000, sha256: 'ab' };
  const media = { duration: 12.5, width: 640, height: 360, fps: 25, codec: 'h264' };
  const details = { datetimeTaken: null, cameraModel: null, latitude: null, longitude: null, callback: null };
  const options = { retainOriginal: true, transcriptionPrompt: null, tags: [] };
  return { accountId, folderId, ...names, ...file, ...media, ...details, ...options, ...over };
}
