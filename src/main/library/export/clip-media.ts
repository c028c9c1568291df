import type { OriginalIdentity } from '../../media/original-identity';
import type { ClipRow } from '../clips-store';
import { clipFileMedia, libraryMedia, mediaOf, type ExportMedia } from './export-item';
import { framesOf } from '../../../shared/timecode';

/** Reads (or recalls) the identity of a local media file; null when it cannot be read. */
export type IdentityOf = (path: string) => Promise<OriginalIdentity | null>;

/**
 * What a saved clip's events link to: the camera original when this computer has it (found through the video's
 * content: for a proxy upload that is the original, not the proxy), else the clip file cut from it (with the
 * timecode it kept, or the video's own time when it has none), else the library video by name.
 */
export async function clipMedia(c: ClipRow, originalPath: string | null, identityOf: IdentityOf): Promise<ExportMedia> {
  const original = originalPath ? await identityOf(originalPath) : null;
  if (originalPath && original) return mediaOf('original', originalPath, original, 0);
  if (c.state === 'ready' && c.path) {
    const path = c.path;
    const fallback = clipFileMedia({ ...c, path });
    const own = await identityOf(path);
    if (!own) return { ...fallback, startFrame: framesOf(fallback.offsetSeconds, fallback.rate) };
    const media = mediaOf('clip', path, own, fallback.offsetSeconds);
    return own.timecodeSource === 'none'
      ? { ...media, startFrame: framesOf(fallback.offsetSeconds, media.rate) }
      : media;
  }
  return libraryMedia(c.video_name, c.video_no, c.fps);
}
