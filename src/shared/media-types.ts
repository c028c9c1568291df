/**
 * Media types by lowercased file extension: the one map for media, used by the client (local media, uploads), the
 * service's downloads and the web mode's static files.
 */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.mkv': 'video/x-matroska',
  '.webm': 'video/webm',
  '.avi': 'video/x-msvideo',
  // Camera originals: never uploaded as they are, but their thumbnails and proxies are made from them here.
  '.mxf': 'application/mxf',
  '.mts': 'video/mp2t',
  '.m2ts': 'video/mp2t',
  '.mpg': 'video/mpeg',
  '.dv': 'video/dv',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
};

/** The lowercased extension of a path's last segment, with its dot ('' when there is none). */
function extensionOf(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** The media type of a path, or undefined when it is not a media file this map knows. */
export function mediaTypeOf(path: string): string | undefined {
  return MEDIA_TYPES[extensionOf(path)];
}
