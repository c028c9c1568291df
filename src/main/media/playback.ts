import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { Playback, SourceIdentity } from '../../shared/contract/library';
import type { Db } from '../store/database';
import type { OriginalIdentity } from './original-identity';

/** What Chromium's <video> decodes: H.264/VP8/VP9/AV1 at 8-bit 4:2:0 in MP4/MOV, Matroska or WebM. */
export function browserPlays(id: OriginalIdentity): boolean {
  const container = id.container ?? '';
  const box = container.includes('mp4') || container.includes('matroska') || container.includes('webm');
  const codec = ['h264', 'vp8', 'vp9', 'av1'].includes(id.codec ?? '');
  const pixels = id.pixFmt === null || id.pixFmt === 'yuv420p' || id.pixFmt === 'yuvj420p';
  return box && codec && pixels;
}

const pathRow = z.object({ path: z.string() });

/** The first of `sql`'s paths that is still on disk. */
function onDisk(db: Db, sql: string, videoNo: string): string | null {
  const rows = z.array(pathRow).parse(db.prepare(sql).all(videoNo));
  return rows.find((r) => existsSync(r.path))?.path ?? null;
}

/**
 * What the player plays for a video: the camera original when a browser decodes it, else its search proxy (still in
 * the cache), else a downloaded copy from the library; null when none is on this computer.
 */
export function playbackOf(db: Db, videoNo: string, original: string | null, id: OriginalIdentity | null): Playback {
  if (original && (!id || browserPlays(id))) return { kind: 'original', path: original };
  const proxy = onDisk(
    db,
    "SELECT path FROM proxies WHERE video_no = ? AND state IN ('ready', 'uploaded') ORDER BY created_at DESC",
    videoNo,
  );
  if (proxy) return { kind: 'proxy', path: proxy };
  const copy = onDisk(
    db,
    "SELECT path FROM downloads WHERE video_no = ? AND kind = 'video' AND state = 'done' AND path IS NOT NULL ORDER BY id DESC",
    videoNo,
  );
  if (copy) return { kind: 'library', path: copy };
  return { kind: original ? 'unplayable' : 'none', path: null };
}

/** The original's source timecode as the player shows it. */
export function sourceIdentity(id: OriginalIdentity | null): SourceIdentity | null {
  if (!id) return null;
  return {
    startFrame: id.startFrame,
    rate: id.rate,
    dropFrame: id.dropFrame,
    startTimecode: id.startTimecode,
    reel: id.reel,
    clipName: id.clipName,
    codec: id.codec,
    profile: id.profile,
  };
}
